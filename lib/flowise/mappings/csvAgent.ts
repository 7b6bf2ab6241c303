import { anchor, dataUrlFile, defineMapping, ignore, oneOf, param, toText } from "../rules";

/**
 * Flowise "CSV Agent" → our CSV Agent. Flowise has the model write pandas code and runs it; ours
 * queries the rows through a CSV query tool, so only Flowise's default read_csv call is accepted.
 */
export const csvAgent = defineMapping({
  flowise: "csvAgent",
  type: "csvAgent",
  inputs: {
    csvFile: param("file", dataUrlFile),
    model: anchor("model"),
    systemMessagePrompt: param("systemMessage", toText),
    customReadCSV: ignore(
      "custom pandas code is never run here: the CSV agent reads the file with a header row and queries it through its CSV tool",
      oneOf("read_csv(csv_data)"),
    ),
  },
});

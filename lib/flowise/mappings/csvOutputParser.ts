import { defineMapping, ignore } from "../rules";

const repairs = "our output parsers always make one repair attempt when the answer is out of format";

/** Flowise "CSV Output Parser" → our CSV Output Parser. */
export const csvOutputParser = defineMapping({
  flowise: "csvOutputParser",
  type: "csvOutputParser",
  inputs: { autofixParser: ignore(repairs) },
  outputs: { csvOutputParser: "parser" },
});

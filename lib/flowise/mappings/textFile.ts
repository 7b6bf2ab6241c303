import { anchor, dataUrlFile, defineMapping, ignore, param, toJson } from "../rules";

/** Flowise "Text File" → our textFileLoader: the uploaded file is kept with its name; its "document" output maps, "text" does not. */
export const textFile = defineMapping({
  flowise: "textFile",
  type: "textFileLoader",
  inputs: {
    txtFile: param("file", dataUrlFile),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});

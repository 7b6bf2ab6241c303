import { anchor, dataUrlFile, defineMapping, ignore, param, toJson } from "../rules";

/** Flowise "Docx File" → our docxLoader: the uploaded file is kept with its name; its "document" output maps, "text" does not. */
export const docxFile = defineMapping({
  flowise: "docxFile",
  type: "docxLoader",
  inputs: {
    docxFile: param("file", dataUrlFile),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});

import { anchor, dataUrlFile, defineMapping, ignore, oneOf, param, toJson } from "../rules";

/** Flowise "Json File" → our jsonLoader: the uploaded file is kept with its name; its "document" output maps, "text" does not. */
export const jsonFile = defineMapping({
  flowise: "jsonFile",
  type: "jsonLoader",
  inputs: {
    jsonFile: param("file", dataUrlFile),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    pointersName: ignore(
      "Flowise's key names differ from our JSON pointer (e.g. /articles/*/body): set Pointer on our JSON Loader",
      () => false,
    ),
    separateByObject: ignore("one document per object has no equivalent", oneOf(false, "false")),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});

import { anchor, defineMapping, ignore, param, toJson, toText } from "../rules";

/** Flowise "Plain Text" → our Plain Text loader. */
export const plainText = defineMapping({
  flowise: "plainText",
  type: "plainTextLoader",
  inputs: {
    text: param("text", toText),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});

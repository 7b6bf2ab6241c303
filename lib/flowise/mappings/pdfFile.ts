import { anchor, dataUrlFile, defineMapping, ignore, oneOf, param, toJson } from "../rules";

/** Flowise "PDF File" → our pdfLoader: the uploaded file is kept with its name; its "document" output maps, "text" does not. */
export const pdfFile = defineMapping({
  flowise: "pdfFile",
  type: "pdfLoader",
  inputs: {
    pdfFile: param("file", dataUrlFile),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    usage: param("usage", (v) =>
      v === "perPage" || v === "perFile" ? { value: v } : { drop: `"${String(v)}" is not perPage or perFile` },
    ),
    legacyBuild: ignore("the legacy PDF build has no equivalent", oneOf(false, "false")),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});

import { splitDocuments } from "../../vector/loaders";
import type { DocumentSource } from "../../vector/types";
import type { RuntimeOf } from "../define";
import type { plainTextLoaderDefinition } from "./definition";

/** Builds a source of the node's own text; uploads never reach it. */
export const buildPlainTextLoader: RuntimeOf<typeof plainTextLoaderDefinition> = async ({ params, inputs, label }) => {
  const source: DocumentSource = {
    kind: "documentSource",
    label,
    accepts: [],
    async load() {
      const text = String(params.text ?? "");
      if (!text.trim()) return [];
      const extra =
        params.metadata && typeof params.metadata === "object" && !Array.isArray(params.metadata)
          ? params.metadata
          : {};
      const doc = { pageContent: text, metadata: { ...extra, source: String(params.sourceName) } };
      return splitDocuments([doc], inputs.textSplitter, label);
    },
  };
  return source;
};

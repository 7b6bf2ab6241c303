import { anchor, defineMapping, param, toBoolean, toText } from "../rules";

/** Flowise "Retriever Tool" → our Retriever Tool. */
export const retrieverTool = defineMapping({
  flowise: "retrieverTool",
  type: "retrieverTool",
  inputs: {
    name: param("name", toText),
    description: param("description", toText),
    retriever: anchor("retriever"),
    returnSourceDocuments: param("returnSourceDocuments", toBoolean),
  },
});

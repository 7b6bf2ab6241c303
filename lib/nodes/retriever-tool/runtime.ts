import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { formatContext, retrieveDocuments } from "../../vector/fusion";
import type { RuntimeOf } from "../define";
import type { retrieverToolDefinition } from "./definition";
import { SOURCE_DOCUMENTS_EVENT } from "../events";

/** Builds a tool over the connected retrievers (fused when several); its chunks become source documents. */
export const buildRetrieverTool: RuntimeOf<typeof retrieverToolDefinition> = async ({ params, inputs }) => {
  const retrievers = inputs.retriever;
  const report = params.returnSourceDocuments;
  return tool(
    async ({ query }, config) => {
      const docs = await retrieveDocuments(retrievers, query, config);
      if (report && docs.length) await dispatchCustomEvent(SOURCE_DOCUMENTS_EVENT, docs, config);
      return docs.length ? formatContext(docs) : "No matching documents were found.";
    },
    {
      name: params.name,
      description: params.description,
      schema: z.object({ query: z.string().describe("What to search the documents for") }),
    },
  );
};

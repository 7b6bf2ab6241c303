import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { formatContext, retrieveDocuments } from "../../vector/fusion";
import type { NodeRuntime } from "../runtime-types";
import { SOURCE_DOCUMENTS_EVENT } from "../shared/events";

/** Builds a tool over the connected retrievers (fused when several); its chunks become source documents. */
export const buildRetrieverTool: NodeRuntime = async ({ params, inputs }) => {
  const retrievers = (inputs.retriever as BaseRetrieverInterface[] | undefined) ?? [];
  const report = params.returnSourceDocuments !== false;
  return tool(
    async ({ query }, config) => {
      const docs = await retrieveDocuments(retrievers, query, config);
      if (report && docs.length) await dispatchCustomEvent(SOURCE_DOCUMENTS_EVENT, docs, config);
      return docs.length ? formatContext(docs) : "No matching documents were found.";
    },
    {
      name: params.name as string,
      description: params.description as string,
      schema: z.object({ query: z.string().describe("What to search the documents for") }),
    },
  );
};

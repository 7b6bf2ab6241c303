import type { AgentflowStep } from "../../agentflow/types";
import { retrieveDocuments } from "../../vector/fusion";
import type { RuntimeOf } from "../define";
import { stateUpdates } from "../shared/agentflow";
import type { retrieverAgentflowDefinition } from "./definition";

/** Retriever: the query (or the question) against the stores; the chunks' text (or JSON with metadata) as output. */
export const buildRetrieverStep: RuntimeOf<typeof retrieverAgentflowDefinition> = async ({ params, inputs }) => {
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const query = params.retrieverQuery?.trim() ? ctx.resolve(params.retrieverQuery) : ctx.question;
      const documents = await retrieveDocuments(inputs.knowledge, query, { signal: ctx.signal });
      const content =
        params.outputFormat === "textWithMetadata"
          ? JSON.stringify(documents, null, 2)
          : documents.map((d) => d.pageContent).join("\n");
      ctx.onToken?.(content);
      const output = { content, documents };
      const state = stateUpdates(params.retrieverUpdateState, ctx, output);
      return { input: { question: query }, output, ...(state ? { state } : {}) };
    },
  };
  return step;
};

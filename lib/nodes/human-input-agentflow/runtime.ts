import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import { AppError } from "@/common/errors";
import type { AgentflowStep, StepContext } from "../../agentflow/types";
import type { ParamsOf, RuntimeOf } from "../define";
import { callModel, toModelMessages } from "../shared/agentflow";
import type { humanInputAgentflowDefinition } from "./definition";

type Params = ParamsOf<typeof humanInputAgentflowDefinition>;

const DEFAULT_DESCRIPTION = "Do you want to proceed?";
const DEFAULT_PROMPT =
  "Summarise the conversation so far for a person who must approve or reject the next step, and ask them to decide. Be brief.";

/** What the person is asked: the fixed text (after the run's last message, as Flowise shows it), or the model's. */
async function description(params: Params, model: BaseChatModel | undefined, ctx: StepContext): Promise<string> {
  if (params.humanInputDescriptionType === "dynamic") {
    if (!model)
      throw new AppError(
        "invalid_graph",
        `Node "${ctx.label}" (${ctx.nodeId}): a dynamic description needs a chat model.`,
      );
    const prompt = params.humanInputModelPrompt ? ctx.resolve(params.humanInputModelPrompt) : DEFAULT_PROMPT;
    const messages = [...toModelMessages(ctx.chatHistory), new HumanMessage(prompt)];
    return callModel(model, messages, { ...ctx, onToken: undefined });
  }
  const fixed = params.humanInputDescription ? ctx.resolve(params.humanInputDescription) : DEFAULT_DESCRIPTION;
  const last = ctx.runtimeHistory.at(-1)?.content;
  return last ? `${last}\n\n${fixed}` : fixed;
}

/** Human Input: pauses with a description; resumed, takes `proceed` or `reject` (feedback kept when enabled). */
export const buildHumanInputStep: RuntimeOf<typeof humanInputAgentflowDefinition> = async ({ params, inputs }) => {
  const model = inputs.model as BaseChatModel | undefined;
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const answer = ctx.humanInput;
      if (!answer) {
        const text = await description(params, model, ctx);
        return {
          input: { humanInputEnableFeedback: params.humanInputEnableFeedback },
          output: { content: text },
          pause: { description: text },
        };
      }
      const feedback = params.humanInputEnableFeedback && answer.feedback ? answer.feedback : undefined;
      return {
        input: { type: answer.type, startNodeId: answer.startNodeId, ...(feedback ? { feedback } : {}) },
        output: { content: feedback ?? answer.type, type: answer.type, ...(feedback ? { feedback } : {}) },
        branch: answer.type,
        ...(feedback ? { messages: [{ role: "userMessage" as const, content: feedback }] } : {}),
      };
    },
  };
  return step;
};

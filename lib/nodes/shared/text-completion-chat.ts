import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { AppError } from "@/common/errors";
import { messageText } from "./messages";

/**
 * A text-generation model (one prompt in, text out: Replicate's and Hugging Face's text models) used
 * where chains take a chat model. A lone human message is sent as it is (a prompt template's text);
 * a conversation is written as "System:/User:/Assistant:" lines ending with "Assistant:". No tool
 * calling: agents need a chat model that has it.
 */
export class TextCompletionChat extends BaseChatModel {
  constructor(
    private readonly provider: string,
    private readonly complete: (prompt: string, signal?: AbortSignal) => Promise<string>,
  ) {
    super({});
  }

  static lc_name() {
    return "SwitchyardTextCompletionChat";
  }

  _llmType() {
    return this.provider;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const text = await this.complete(promptOf(messages), options.signal);
    await runManager?.handleLLMNewToken(text);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

const ROLE: Record<string, string> = { system: "System", human: "User", ai: "Assistant", tool: "Tool" };

/** The prompt a text model gets for a list of chat messages. */
export function promptOf(messages: BaseMessage[]): string {
  if (messages.length === 1 && messages[0].getType() === "human") return messageText(messages[0]);
  const lines = messages.map((m) => `${ROLE[m.getType()] ?? "User"}: ${messageText(m)}`);
  return `${lines.join("\n\n")}\n\nAssistant:`;
}

/** A provider's answer that is not a success, as a 502 naming the provider (refused keys and 429s are said by the guard). */
export async function providerFailure(provider: string, res: Response): Promise<AppError> {
  const text = await res.text().catch(() => "");
  let said = text.trim();
  try {
    const parsed = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
    const message = parsed.detail ?? parsed.error ?? parsed.message;
    if (typeof message === "string") said = message;
  } catch {
    // not JSON: the text as it came
  }
  return new AppError(
    "upstream_error",
    `${provider} answered HTTP ${res.status}${said ? `: ${said.slice(0, 300)}` : ""}.`,
  );
}

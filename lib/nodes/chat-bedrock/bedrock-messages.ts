import type { ContentBlock, ImageFormat, Message, SystemContentBlock } from "@aws-sdk/client-bedrock-runtime";
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { AppError } from "@/common/errors";
import { parseDataUrl } from "@/common/files/data-url";

/**
 * LangChain messages → the Converse API's `messages` and `system`: system messages become system
 * blocks; the model's turns carry their tool calls as `toolUse` blocks; tool results are `toolResult`
 * blocks of a user turn, answering the call by id. Turns of the same role in a row are merged, as
 * Converse requires them to alternate.
 */
export function toConverseMessages(
  messages: BaseMessage[],
  requester: string,
): { messages: Message[]; system: SystemContentBlock[] } {
  const system: SystemContentBlock[] = [];
  const out: Message[] = [];
  const push = (role: "user" | "assistant", content: ContentBlock[]) => {
    if (!content.length) return;
    const last = out.at(-1);
    if (last?.role === role) last.content = [...(last.content ?? []), ...content];
    else out.push({ role, content });
  };
  for (const m of messages) {
    const type = m.getType();
    if (type === "system") {
      const text = textOf(m.content);
      if (text) system.push({ text });
    } else if (type === "ai") {
      const ai = m as AIMessage;
      push("assistant", [
        ...contentBlocks(ai.content, requester),
        ...(ai.tool_calls ?? []).map(
          (c): ContentBlock => ({ toolUse: { toolUseId: c.id ?? c.name, name: c.name, input: c.args as never } }),
        ),
      ]);
    } else if (type === "tool") {
      const tool = m as ToolMessage;
      push("user", [
        {
          toolResult: {
            toolUseId: tool.tool_call_id,
            content: [{ text: textOf(tool.content) || "(empty)" }],
            ...(tool.status === "error" ? { status: "error" as const } : {}),
          },
        },
      ]);
    } else push("user", contentBlocks(m.content, requester));
  }
  return { messages: out, system };
}

type ContentValue = BaseMessage["content"];

function textOf(content: ContentValue): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

const FORMATS: Record<string, ImageFormat> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Text blocks, and images given as data: URLs (how our runs pass uploads) as bytes. */
function contentBlocks(content: ContentValue, requester: string): ContentBlock[] {
  if (typeof content === "string") return content ? [{ text: content }] : [];
  const blocks: ContentBlock[] = [];
  for (const p of content) {
    if (p.type === "text" && typeof p.text === "string" && p.text) blocks.push({ text: p.text });
    if (p.type === "image_url") {
      const raw = p.image_url as string | { url?: string };
      const data = parseDataUrl(typeof raw === "string" ? raw : (raw?.url ?? ""));
      const format = data?.base64 ? FORMATS[data.type] : undefined;
      // Converse takes images as bytes only: a link would have to be fetched, which is not the model's call.
      if (!data?.base64 || !format)
        throw new AppError(
          "invalid_graph",
          `${requester}: Bedrock takes PNG, JPEG, GIF or WebP images as uploads only.`,
        );
      blocks.push({ image: { format, source: { bytes: Buffer.from(data.data, "base64") } } });
    }
  }
  return blocks;
}

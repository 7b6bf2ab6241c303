import type { Content, Part } from "@google/genai";
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import { parseDataUrl } from "@/common/files/data-url";

/**
 * LangChain messages → Gemini's `contents` and `systemInstruction`: system messages join the
 * instruction; the model's turns are role "model" with their function calls; tool results are
 * `functionResponse` parts of a user turn, named after the call they answer. Turns of the same role
 * in a row are merged, as Gemini expects them to alternate.
 */
export function toGeminiContents(messages: BaseMessage[]): { contents: Content[]; systemInstruction?: string } {
  const system: string[] = [];
  const contents: Content[] = [];
  const callNames = new Map<string, string>();
  const push = (role: "user" | "model", parts: Part[]) => {
    if (!parts.length) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    const type = m.getType();
    if (type === "system") system.push(textOf(m.content));
    else if (type === "ai") {
      const ai = m as AIMessage;
      for (const call of ai.tool_calls ?? []) if (call.id) callNames.set(call.id, call.name);
      push("model", [
        ...contentParts(ai.content),
        ...(ai.tool_calls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args, ...idOf(c.id) } })),
      ]);
    } else if (type === "tool") {
      const tool = m as ToolMessage;
      const name = tool.name ?? callNames.get(tool.tool_call_id) ?? "tool";
      push("user", [
        { functionResponse: { name, response: { output: textOf(tool.content) }, ...idOf(tool.tool_call_id) } },
      ]);
    } else push("user", contentParts(m.content));
  }
  const instruction = system.filter(Boolean).join("\n\n");
  return { contents, ...(instruction ? { systemInstruction: instruction } : {}) };
}

/** Gemini ids its function calls only in some models; ours (LangChain's) are kept when they are Gemini's. */
function idOf(id: string | undefined): { id?: string } {
  return id && !id.startsWith("gemini-call-") ? { id } : {};
}

type ContentValue = BaseMessage["content"];

function textOf(content: ContentValue): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

/** Text parts, and images given as data: URLs (how our runs pass uploads) as inline data. */
function contentParts(content: ContentValue): Part[] {
  if (typeof content === "string") return content ? [{ text: content }] : [];
  const parts: Part[] = [];
  for (const p of content) {
    if (p.type === "text" && typeof p.text === "string" && p.text) parts.push({ text: p.text });
    if (p.type === "image_url") {
      const raw = p.image_url as string | { url?: string };
      const url = typeof raw === "string" ? raw : (raw?.url ?? "");
      const data = parseDataUrl(url);
      if (data?.base64) parts.push({ inlineData: { mimeType: data.type, data: data.data } });
      else if (url) parts.push({ fileData: { fileUri: url } });
    }
  }
  return parts;
}

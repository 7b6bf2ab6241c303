import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { HistoryMessage, ImageUpload } from "../../flow/types";

/** Turns stored chat messages (oldest first) into LangChain messages. */
export function historyToMessages(history: HistoryMessage[]): BaseMessage[] {
  return history.map((m) => (m.role === "userMessage" ? new HumanMessage(m.content) : new AIMessage(m.content)));
}

/**
 * The user's message: plain text, or multimodal (a text part + one image_url part per image, as
 * data URLs) when images are given. Callers pass images only when the flow's model accepts them.
 */
export function humanMessage(text: string, images: ImageUpload[] = []): HumanMessage {
  if (images.length === 0) return new HumanMessage(text);
  return new HumanMessage({
    content: [
      { type: "text", text },
      ...images.map((img) => ({
        type: "image_url" as const,
        image_url: { url: `data:${img.mime};base64,${img.base64}` },
      })),
    ],
  });
}

/** Appends images to an existing human message (keeps its text). */
export function withImages(message: BaseMessage, images: ImageUpload[] = []): BaseMessage {
  if (images.length === 0) return message;
  return humanMessage(messageText(message), images);
}

/** The text of a message whose content may be a string or a list of content parts. */
export function messageText(message: BaseMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof part === "string" ? part : part && part.type === "text" ? String(part.text ?? "") : ""))
    .join("");
}

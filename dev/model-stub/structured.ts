/**
 * Structured-output requests (an agentflow LLM's "Answer with one JSON object … matching this JSON
 * schema:" system message): the stub answers an object of the schema made from the user's text, so
 * flows that plan with structured output run against it. Strings are the text, string arrays its
 * questions or clauses, enums the first value the text names (else the first), numbers 0, booleans false.
 */
import type { ChatMessage } from "./brain";

/** A message's text (text parts joined); brain.ts's textOf, kept here to avoid an import cycle. */
function textOf(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((p) => (typeof p.text === "string" ? p.text : "")).join("\n") : "";
}

const MARKER = "matching this JSON schema:\n";

type PropertySchema = { type?: string; enum?: unknown[]; items?: { type?: string } };

/** The parts of a text: its questions (ending in "?"), else its clauses split at " and " and ";". */
export function partsOf(text: string): string[] {
  const questions = text.match(/[^?.!]+\?/g)?.map((q) => q.trim());
  if (questions && questions.length > 1) return questions;
  return text
    .split(/;|\band\b|\?/i)
    .map((p) => p.trim())
    .filter(Boolean);
}

function valueFor(schema: PropertySchema, text: string): unknown {
  if (Array.isArray(schema.enum)) {
    const named = schema.enum.find((v) => typeof v === "string" && text.toLowerCase().includes(v.toLowerCase()));
    return named ?? schema.enum[0];
  }
  if (schema.type === "array") return schema.items?.type === "string" || !schema.items ? partsOf(text) : [];
  if (schema.type === "number" || schema.type === "integer") return 0;
  if (schema.type === "boolean") return false;
  return text;
}

/** The JSON answer of a structured-output request, or undefined for any other request. */
export function structuredAnswer(messages: ChatMessage[]): string | undefined {
  const system = textOf(messages.find((m) => m.role === "system")?.content);
  const at = system.indexOf(MARKER);
  if (at < 0) return undefined;
  let schema: { properties?: Record<string, PropertySchema> };
  try {
    schema = JSON.parse(system.slice(at + MARKER.length).trim());
  } catch {
    return undefined;
  }
  const text = textOf([...messages].reverse().find((m) => m.role === "user")?.content).trim();
  const entries = Object.entries(schema.properties ?? {}).map(([key, s]) => [key, valueFor(s, text)]);
  return JSON.stringify(Object.fromEntries(entries));
}

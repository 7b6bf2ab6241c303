import type { Chatflow } from "../db/generated/client";

type GraphNode = { type?: unknown; data?: { inputs?: Record<string, unknown> } };

/**
 * The field names of an agentflow's Start form, or null when the flow starts from a question (every
 * chatflow, and agentflows whose Start takes chat input). Read from the version the trigger runs.
 */
export function startFormFields(chatflow: Pick<Chatflow, "type" | "graph">): string[] | null {
  if (chatflow.type !== "AGENTFLOW") return null;
  const nodes = ((chatflow.graph as { nodes?: GraphNode[] } | null)?.nodes ?? []) as GraphNode[];
  const start = nodes.find((n) => n.type === "startAgentflow");
  const inputs = start?.data?.inputs ?? {};
  if (inputs.startInputType !== "formInput") return null;
  const raw = typeof inputs.formInputTypes === "string" ? safeJson(inputs.formInputTypes) : inputs.formInputTypes;
  if (!Array.isArray(raw)) return [];
  return raw
    .map((f) => (typeof f === "object" && f !== null ? (f as { name?: unknown }).name : undefined))
    .filter((n): n is string => typeof n === "string" && n !== "");
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

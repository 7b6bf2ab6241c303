import type { StructuredToolInterface } from "@langchain/core/tools";
import { AppError } from "@/common/errors";

/**
 * The tools connected to an agent's Tools anchor as one list: a toolkit node (the OpenAPI Toolkit,
 * MCP Tools) builds several tools, which arrive as an array among the single tools. Two tools of
 * the same name are refused, naming it (the model could not tell them apart).
 */
export function agentTools(connected: readonly unknown[], label: string): StructuredToolInterface[] {
  const tools = connected.flat() as StructuredToolInterface[];
  const names = tools.map((t) => t.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate)
    throw new AppError("invalid_graph", `${label}: two tools are named "${duplicate}"; tool names must differ.`);
  return tools;
}

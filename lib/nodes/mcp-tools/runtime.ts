import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { AppError } from "@/common/errors";
import { assertCredentialHost } from "../../security/credential-hosts";
import { createOperatorFetch } from "../../security/outbound-policy";
import type { NodeOption, NodeRuntimeArgs, RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import { callMcpTool, listMcpTools, type McpServerTarget } from "./client";
import type { mcpToolsDefinition } from "./definition";

/** The names picked in the node (a JSON list of strings), or undefined for all. */
function pickedNames(value: unknown, label: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
    throw new AppError("invalid_graph", `${label}: "Tools to offer" must be a list of tool names.`);
  return value.length ? (value as string[]) : undefined;
}

type McpArgs = Omit<NodeRuntimeArgs<typeof mcpToolsDefinition>, "inputs">;

/** The server to talk to: its URL, the credential's headers (only to a host it lists), the guarded fetch. */
async function targetFor(args: McpArgs): Promise<McpServerTarget> {
  const { params, ctx, label } = args;
  const url = new URL(params.serverUrl);
  let headers: Record<string, string> = {};
  if (params.headersCredential) {
    const cred = await ctx.resolveCredential(params.headersCredential);
    assertCredentialHost(cred, url.href, requesterOf(args));
    const h = cred.data.headers;
    if (h && typeof h === "object")
      headers = Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => typeof e[1] === "string"));
  }
  const timeoutMs = params.timeoutSeconds * 1000;
  return {
    url,
    headers,
    timeoutMs,
    label,
    fetch: createOperatorFetch({ allowedHosts: [url.host], timeoutMs, requester: requesterOf(args) }),
  };
}

/** The "Tools to offer" choices: the server's tools, listed when the builder asks (the studio's options). */
export async function toolOptions(args: McpArgs): Promise<NodeOption[]> {
  const tools = await listMcpTools(await targetFor(args));
  return tools.map((t) => ({ name: t.name, label: t.title ?? t.name, description: t.description }));
}

/**
 * Builds the agent tools of a remote MCP server: lists the server's tools (502/504 naming the server
 * when it is down, slow or answers garbage), keeps the picked ones (a picked name the server does
 * not have is refused), and makes each a tool whose calls go to the server, one connection per call.
 */
export const buildMcpTools: RuntimeOf<typeof mcpToolsDefinition> = async (args) => {
  const { params, label } = args;
  const target = await targetFor(args);
  const offered = await listMcpTools(target);
  const picked = pickedNames(params.tools, label);
  const missing = (picked ?? []).filter((n) => !offered.some((t) => t.name === n));
  if (missing.length)
    throw new AppError(
      "invalid_graph",
      `${label}: the MCP server has no tool named ${missing.map((n) => `"${n}"`).join(", ")}; it offers: ${offered.map((t) => t.name).join(", ") || "none"}.`,
    );
  return offered
    .filter((t) => !picked || picked.includes(t.name))
    .map(
      (t): StructuredToolInterface =>
        tool(
          async (input: unknown, config) =>
            callMcpTool(target, t.name, (input ?? {}) as Record<string, unknown>, config?.signal),
          {
            name: t.name,
            description: (t.description ?? t.title ?? t.name).slice(0, 1000),
            schema: { ...t.inputSchema, type: "object", properties: t.inputSchema.properties ?? {} },
            verboseParsingErrors: true,
          },
        ) as StructuredToolInterface,
    );
};

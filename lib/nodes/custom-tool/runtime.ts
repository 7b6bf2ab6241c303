import { DynamicStructuredTool } from "@langchain/core/tools";
import { AppError } from "@/common/errors";
import { type Json, runInSandbox, type SandboxFetch } from "../../sandbox";
import type { RuntimeOf } from "../define";
import type { customToolDefinition } from "./definition";

/** The names the sandbox gives the code itself; an input of the schema with one of them is only in $input. */
const RESERVED = new Set(["input", "vars", "flow"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_BODY_BYTES = 1024 * 1024;

/** The code's `fetch` over the flow's guarded fetch: the operator's outbound rules apply to every call. */
export function sandboxFetchOverGuard(guarded: typeof fetch): SandboxFetch {
  return async ({ url, method, headers, body }) => {
    const res = await guarded(url, { method, headers, body });
    const text = await res.text();
    return {
      url: res.url || url,
      status: res.status,
      statusText: res.statusText,
      headers: Object.fromEntries([...res.headers.entries()].map(([k, v]) => [k.toLowerCase(), v])),
      body: text.length > MAX_BODY_BYTES ? text.slice(0, MAX_BODY_BYTES) : text,
    };
  };
}

/** The schema param as an object schema (the model is offered it as the tool's parameters). */
function objectSchema(schema: unknown, label: string): Record<string, unknown> {
  if (!schema || typeof schema !== "object" || Array.isArray(schema))
    throw new AppError("invalid_graph", `${label}: the input schema must be a JSON schema object.`);
  const s = schema as Record<string, unknown>;
  if (s.type !== undefined && s.type !== "object")
    throw new AppError("invalid_graph", `${label}: the input schema must be of type "object".`);
  return { ...s, type: "object", properties: s.properties ?? {} };
}

/**
 * Custom Tool: the model calls it with arguments matching the schema; the code runs in lib/sandbox
 * (QuickJS on a worker thread, never in this process). A throw, the time or memory limit, or a
 * result that is not JSON fails the tool call naming it; the agent reads the failure and goes on.
 */
export const buildCustomTool: RuntimeOf<typeof customToolDefinition> = async ({ params, label, nodeId, ctx }) => {
  const schema = objectSchema(params.schema, label);
  const subject = `Custom tool "${params.name}" (${nodeId})`;
  const fetch = sandboxFetchOverGuard(ctx.fetch);
  return new DynamicStructuredTool({
    name: params.name,
    description: params.description,
    // A JSON schema object: LangChain passes it to the model as the tool's parameters as written.
    schema: schema as never,
    returnDirect: params.returnDirect,
    func: async (args: Record<string, unknown>) => {
      const input = JSON.parse(JSON.stringify(args ?? {})) as Record<string, Json>;
      const named = Object.fromEntries(Object.entries(input).filter(([k]) => IDENTIFIER.test(k) && !RESERVED.has(k)));
      const vars = (await ctx.vars?.()) ?? {};
      const outcome = await runInSandbox({
        code: params.code,
        variables: { ...named, input, vars, flow: { chatflowId: ctx.chatflowId } },
        fetch,
      });
      if (!outcome.ok) throw new Error(`${subject} failed (${outcome.error.kind}): ${outcome.error.message}`);
      return typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
    },
  });
};

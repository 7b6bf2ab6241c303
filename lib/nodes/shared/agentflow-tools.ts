import { randomUUID } from "node:crypto";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { callOnce } from "../../agentflow/journal";
import type { StepContext } from "../../agentflow/types";
import type { UsedTool } from "../../flow/types";
import { traceRequests } from "../../security/request-trace";
import type { ToolRequest } from "@/common/schemas/prediction-stream";

/**
 * Tool calls of agentflow steps (Agent, Tool): each call is announced (`toolStart`), made once, and
 * its result stored in the step's journal as it finishes, so a run continued after a crash reuses a
 * finished call's result instead of calling the tool again.
 */

/** A finished tool call as the journal keeps it. */
interface StoredCall {
  output: string;
  failed: boolean;
  /** The HTTP requests it made (request-trace.ts), when any. */
  requests?: ToolRequest[];
}

/** JSON with sorted keys: the same arguments give the same journal key. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * Calls tools for one step: the n-th call of a tool with the same arguments in this step has one
 * journal key, so a step run again (after a crash) meets its finished calls in the same order.
 */
export class StepToolCalls {
  readonly used: UsedTool[] = [];
  private readonly seen = new Map<string, number>();

  constructor(private readonly ctx: StepContext) {}

  /**
   * Calls `tool` (or reuses the stored result). A tool that throws gives "Tool error: …" with
   * `failed`, unless `rethrow`: then its error propagates (and nothing is stored).
   */
  async call(tool: StructuredToolInterface, args: Record<string, unknown>, rethrow = false): Promise<StoredCall> {
    const base = `tool:${tool.name}:${stableJson(args)}`;
    const n = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, n);
    const key = `${base}#${n}`;
    const result = await callOnce(this.ctx, key, `its call of tool ${tool.name}`, () =>
      this.invoke(tool, args, rethrow),
    );
    this.used.push({
      tool: tool.name,
      toolInput: args,
      toolOutput: result.output,
      ...(result.requests?.length ? { requests: result.requests } : {}),
    });
    return result;
  }

  private async invoke(tool: StructuredToolInterface, args: Record<string, unknown>, rethrow: boolean) {
    this.ctx.onToolStart?.({ tool: tool.name, input: args, runId: randomUUID() });
    const { value, requests } = await traceRequests(async (): Promise<StoredCall> => {
      try {
        const result: unknown = await tool.invoke(args, { signal: this.ctx.signal });
        return { output: typeof result === "string" ? result : JSON.stringify(result), failed: false };
      } catch (e) {
        if (rethrow || this.ctx.signal?.aborted) throw e;
        return { output: `Tool error: ${e instanceof Error ? e.message : String(e)}`, failed: true };
      }
    });
    return requests.length ? { ...value, requests } : value;
  }
}

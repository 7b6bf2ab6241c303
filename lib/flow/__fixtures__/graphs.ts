import { handleId } from "@/common/nodes/handles";
import type { ResolvedCredential } from "../../security/credential-hosts";
import type { BuildContext } from "../types";

/** Small builders for test graphs. */

export function node(id: string, type: string, inputs: Record<string, unknown> = {}, label?: string) {
  return { id, type, position: { x: 0, y: 0 }, data: { inputs, ...(label ? { label } : {}) } };
}

export function edge(source: string, output: string, target: string, input: string) {
  return {
    id: `${source}-${target}-${input}`,
    source,
    sourceHandle: handleId(source, output, "out"),
    target,
    targetHandle: handleId(target, input, "in"),
  };
}

/** A build context for tests: real fetch, credentials from a map. */
export function testContext(credentials: Record<string, ResolvedCredential> = {}): BuildContext {
  return {
    chatflowId: "test-flow",
    resolveCredential: async (id) => {
      const c = credentials[id];
      if (!c) throw new Error(`unknown credential ${id}`);
      return c;
    },
    env: { OPENAI_MODEL: "test-model" },
    fetch: globalThis.fetch,
  };
}

import { z } from "zod";
import { AppError } from "@/common/errors";
import { actingUserId } from "@/common/access/permissions";
import type { Caller } from "@/common/access/callers";
import { paramsSchemaFor } from "@/common/nodes/params";
import type { NodeOption } from "../nodes/define";
import { getNode } from "../nodes/registry";
import { buildContext } from "./flows";

/** POST /api/v1/nodes/{name}/options: which param, and the node's params as the builder has them so far. */
export const nodeOptionsBodySchema = z
  .object({
    input: z.string().min(1).max(100),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/**
 * The choices of a param whose options come from the server (an MCP server's tools), loaded with the
 * node's params as a build would use them: credentials resolved as the caller may use them, outbound
 * requests under the operator's rules. A node or param without such options is 404; params the node
 * refuses are 400 naming them; the server they point at failing is its 502/504.
 */
export async function loadNodeOptions(
  name: string,
  body: z.infer<typeof nodeOptionsBodySchema>,
  caller: Caller,
): Promise<{ options: NodeOption[] }> {
  const node = getNode(name);
  if (!node) throw new AppError("not_found", `There is no node type "${name}".`);
  const loader = node.loadOptions?.[body.input];
  if (!loader)
    throw new AppError("not_found", `The ${node.definition.label} node has no options to load for "${body.input}".`);
  const parsed = paramsSchemaFor(node.definition).safeParse(body.params);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError("validation_failed", `body.params.${first.path.join(".")}: ${first.message}`, {
      details: parsed.error.issues.map((i) => ({ path: `body.params.${i.path.join(".")}`, message: i.message })),
    });
  }
  const ctx = buildContext(`options:${name}`, actingUserId(caller));
  const options = await loader({ nodeId: `${name}_options`, label: node.definition.label, params: parsed.data, ctx });
  return { options };
}

import type { Caller } from "@/common/access/callers";
import { actingUserId, chatflowScope } from "@/common/access/permissions";
import { AppError } from "@/common/errors";
import { convertFlowiseFlow } from "../flowise/convert";
import { flowiseMappings } from "../flowise/mappings";
import type { FlowiseFlow, ImportWarning } from "../flowise/types";
import { getDefinition } from "../nodes/registry";
import type { ChatflowType } from "@/common/schemas/chatflow";
import { type FlowiseImportInput, flowiseGraphSchema } from "@/common/schemas/flowise-import";
import { createChatflow } from "./chatflows";
import { findStoreForFlow } from "./document-store-graph";
import type { Graph } from "@/common/schemas/graph";

/**
 * Import of Flowise chatflows (issue 13) and Agentflow V2 flows (issue 32): a Flowise export or API
 * record → our graph (lib/flowise/convert.ts with the mappings of lib/flowise/mappings), saved as a
 * new chatflow (or agentflow) of the caller. Anything that cannot be mapped refuses the import
 * before anything is saved: one 400 `import_unmapped` listing every unmapped node and every dropped
 * input.
 */

export const DEFAULT_IMPORT_NAME = "Imported Flowise chatflow";
export const DEFAULT_AGENTFLOW_IMPORT_NAME = "Imported Flowise agentflow";

export interface FlowiseImport {
  name: string;
  description: string;
  /** AGENTFLOW when the record says so or any node is an Agentflow V2 step. */
  type: ChatflowType;
  flow: FlowiseFlow;
}

/** Agentflow V2 nodes are named `…Agentflow` (startAgentflow, llmAgentflow…) and placed as "agentFlow". */
function isAgentflow(flow: FlowiseFlow, recordType: unknown): boolean {
  if (recordType === "AGENTFLOW") return true;
  return flow.nodes.some((n) => n.type === "agentFlow" || /Agentflow$/.test(n.data?.name ?? ""));
}

function issuesMessage(where: string, issues: { path: PropertyKey[]; message: string }[]) {
  const details = issues.map((i) => ({ field: [where, ...i.path.map(String)].join("."), message: i.message }));
  return new AppError("validation_failed", details.map((d) => `${d.field}: ${d.message}`).join("; "), { details });
}

/**
 * The Flowise graph of an import body: `nodes`/`edges` as given, or `flowData` parsed (the caller
 * checks the text's nesting depth first). 400 naming the field when it is not a Flowise graph.
 */
export function readFlowiseImport(body: FlowiseImportInput): FlowiseImport {
  let raw: unknown = { nodes: body.nodes, edges: body.edges ?? [] };
  const where = body.flowData === undefined ? "body" : "body.flowData";
  if (body.flowData !== undefined) {
    try {
      raw = JSON.parse(body.flowData);
    } catch {
      throw new AppError(
        "validation_failed",
        "body.flowData: must be the JSON text of a Flowise graph ({nodes, edges}).",
      );
    }
  }
  const parsed = flowiseGraphSchema.safeParse(raw);
  if (!parsed.success) throw issuesMessage(where, parsed.error.issues);
  const flow = parsed.data as unknown as FlowiseFlow;
  const type: ChatflowType = isAgentflow(flow, body.type) ? "AGENTFLOW" : "CHATFLOW";
  return {
    name: body.name ?? (type === "AGENTFLOW" ? DEFAULT_AGENTFLOW_IMPORT_NAME : DEFAULT_IMPORT_NAME),
    description: (body.description ?? "").slice(0, 5000),
    type,
    flow,
  };
}

/** Converts and saves; 400 import_unmapped (nothing saved) when anything cannot be imported. */
export async function importFlowiseChatflow(input: FlowiseImport, caller: Caller) {
  if (chatflowScope(caller))
    throw new AppError("forbidden", "A key scoped to chosen chatflows cannot create chatflows.");
  const result = convertFlowiseFlow(input.flow, flowiseMappings, getDefinition);
  const { unmapped, dropped } = result;
  if (unmapped.length || dropped.length) {
    const parts = [
      ...unmapped.map((n) => `node "${n.label}" (${n.nodeId}, Flowise type ${n.flowiseType}): ${n.reason}`),
      ...dropped.map((d) => `input "${d.input}" of "${d.label}" (${d.nodeId}): ${d.reason}`),
    ];
    throw new AppError(
      "import_unmapped",
      `This Flowise ${input.type === "AGENTFLOW" ? "agentflow" : "chatflow"} cannot be imported as it is; nothing was saved. Rebuild or remove: ${parts.join("; ")}.`,
      { details: { unmappedNodes: unmapped, droppedInputs: dropped } },
    );
  }
  const warnings: ImportWarning[] = [...result.warnings, ...(await checkDocumentStores(result.graph, caller))];
  const chatflow = await createChatflow(
    { name: input.name, description: input.description, type: input.type, graph: result.graph as never },
    caller,
  );
  return { ...chatflow, warnings };
}

/** Our node types that select a document store by id (Flowise's documentStore and documentStoreVS). */
const STORE_SELECTING_TYPES = new Set(["documentStoreLoader", "documentStoreRetriever"]);

/**
 * A Flowise node selecting a document store names a store of that Flowise: the id is kept only
 * when it names a store the importer may read here; otherwise it is cleared (the node then shows a
 * problem until one is picked) and a warning names the id. Changes `graph` in place.
 */
async function checkDocumentStores(graph: Graph, caller: Caller): Promise<ImportWarning[]> {
  const warnings: ImportWarning[] = [];
  for (const node of graph.nodes) {
    if (!STORE_SELECTING_TYPES.has(node.type)) continue;
    const at = {
      nodeId: node.id,
      label: String(node.data.label ?? node.id),
      kind: "approximated" as const,
      input: "selectedStore",
    };
    const storeId = node.data.inputs.storeId;
    if (typeof storeId !== "string" || !storeId) {
      warnings.push({
        ...at,
        message: "No document store was selected in Flowise: pick one on the node (Document Stores in the studio).",
      });
      continue;
    }
    const found = await findStoreForFlow(storeId, actingUserId(caller)).then(
      () => true,
      (e: unknown) => {
        if (e instanceof AppError && e.code === "not_found") return false;
        throw e;
      },
    );
    if (found) continue;
    delete node.data.inputs.storeId;
    warnings.push({
      ...at,
      message: `Document store ${storeId} selected in Flowise is not a store here that you may read: pick one on the node (Document Stores in the studio).`,
    });
  }
  return warnings;
}

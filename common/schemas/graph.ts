import { z } from "zod";

/**
 * The saved graph of a chatflow, shared by the canvas and the server. Nodes hold only their param
 * values; connections are edges between handle ids made by `handleId` (common/nodes/handles.ts), and the
 * engine passes built objects along them by input name. Node ids never contain ":" so handle ids
 * parse back.
 */

export const nodeIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^:\s]+$/, "must not contain ':' or spaces");

export const graphNodeSchema = z.object({
  id: nodeIdSchema,
  /** The definition name, e.g. "chatOpenAICompatible". */
  type: z.string().min(1).max(200),
  /** The definition version the node was saved with; absent (as in flows saved before versions): 1. */
  version: z.number().int().min(1).max(1_000_000).optional(),
  position: z.object({ x: z.number(), y: z.number() }),
  /** The group node holding this one (an agentflow Iteration's sub-graph; React Flow's and Flowise's name). */
  parentNode: nodeIdSchema.optional(),
  data: z.object({
    /** Param values only, by input name. */
    inputs: z.record(z.string(), z.unknown()).default({}),
    label: z.string().max(200).optional(),
  }),
});

export const graphEdgeSchema = z.object({
  id: z.string().min(1).max(400),
  source: nodeIdSchema,
  sourceHandle: z.string().min(1).max(500),
  target: nodeIdSchema,
  targetHandle: z.string().min(1).max(500),
});

/** A note on the canvas (e.g. a Flowise sticky note): text at a position, never run. */
export const graphNoteSchema = z.object({
  id: z.string().min(1).max(200),
  position: z.object({ x: z.number(), y: z.number() }),
  text: z.string().max(20_000),
});

export const graphSchema = z.object({
  nodes: z.array(graphNodeSchema).max(2000),
  edges: z.array(graphEdgeSchema).max(10000),
  notes: z.array(graphNoteSchema).max(500).optional(),
  viewport: z.object({ x: z.number(), y: z.number(), zoom: z.number() }).optional(),
});

export type GraphNode = z.infer<typeof graphNodeSchema>;
export type GraphEdge = z.infer<typeof graphEdgeSchema>;
export type GraphNote = z.infer<typeof graphNoteSchema>;
export type Graph = z.infer<typeof graphSchema>;

/** Path params of /api/v1/vector/stores/{id}/{nodeId}: a chatflow id and one of its node ids. */
export const storeNodeParams = z.object({ id: z.uuid({ error: "must be a UUID" }), nodeId: nodeIdSchema });

import { z } from "zod";

/**
 * POST /api/v1/chatflows/import: a Flowise chatflow as the Flowise UI exports it (`{nodes, edges}`,
 * templates also carry `description`, `usecases`…), or a Flowise API record (`flowData`: the same
 * graph as a JSON string, with `name`, `deployed`, `apikeyid`… beside it). Fields Flowise adds that
 * we do not use are ignored (never saved): only the name, the description and the converted graph
 * are kept.
 */

const position = z.object({ x: z.number(), y: z.number() });

export const flowiseNodeSchema = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.string().max(200).optional(),
  position: position.optional(),
  data: z.looseObject({
    name: z.string().min(1).max(200),
    label: z.string().max(200).optional(),
    version: z.number().optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    credential: z.string().max(200).nullable().optional(),
    outputs: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});

export const flowiseEdgeSchema = z.looseObject({
  id: z.string().max(1000).optional(),
  source: z.string().min(1).max(200),
  target: z.string().min(1).max(200),
  sourceHandle: z.string().max(1000).nullable().optional(),
  targetHandle: z.string().max(1000).nullable().optional(),
});

export const flowiseGraphSchema = z.looseObject({
  nodes: z
    .array(flowiseNodeSchema)
    .min(1, "holds no nodes: there is nothing to import (export the flow again from Flowise, with its nodes)")
    .max(2000),
  edges: z.array(flowiseEdgeSchema).max(10000).default([]),
});

/** Most bytes of an import body (flows carry uploaded specs and files as data: URLs). */
export const FLOWISE_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export const flowiseImportSchema = z
  .looseObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(100_000).optional(),
    nodes: z.array(z.unknown()).optional(),
    edges: z.array(z.unknown()).optional(),
    flowData: z.string().max(FLOWISE_IMPORT_MAX_BYTES).optional(),
  })
  .refine((b) => (b.flowData === undefined) !== (b.nodes === undefined), {
    message:
      "give a Flowise export ({nodes, edges}, as the Flowise UI exports it) or a Flowise API record ({name, flowData}), one of the two",
  })
  // What the document shows: one of the two forms, and the nodes and edges as the import reads them
  // (flowiseGraphSchema, checked after this schema; flowData holds the same graph as JSON text).
  .meta({
    override: ({ jsonSchema }) => {
      const { $schema: _, ...graph } = z.toJSONSchema(flowiseGraphSchema, { io: "input" }) as {
        $schema?: string;
        properties: Record<string, object>;
      };
      const properties = jsonSchema.properties as Record<string, object>;
      Object.assign(jsonSchema, {
        oneOf: [{ required: ["nodes"] }, { required: ["flowData"] }],
        properties: {
          ...properties,
          nodes: graph.properties.nodes,
          edges: graph.properties.edges,
          flowData: { ...properties.flowData, contentMediaType: "application/json", contentSchema: graph },
        },
      });
    },
  });

export type FlowiseImportInput = z.infer<typeof flowiseImportSchema>;

/** The flow engine's public API (server side). Pure: no Prisma, no Request/Response. */
export { buildFlow, buildNodes } from "./build";
export { FlowCache, type FlowCacheKey, type UsesCredential } from "./cache";
export { getEndingNode, topologicalOrder } from "@/common/flow/graph-order";
export { applyOverrides, RESERVED_OVERRIDE_KEYS } from "./overrides";
export type { DefinitionLookup, GraphProblem } from "@/common/flow/validate";
export { validateGraph } from "./validate-saved";
export type * from "./types";

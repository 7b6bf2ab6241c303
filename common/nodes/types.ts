import { z } from "zod";

/**
 * Serialisable node definitions. The same objects are served to the browser (GET /api/v1/nodes) and
 * drive the palette, the parameter forms, the handle ids, the connection check, the per-node schema of
 * parameter values and the server-side graph validation. No functions, no classes: plain data.
 */

export const nodeCategorySchema = z.enum([
  "Chat Models",
  "Prompts",
  "Chains",
  "Memory",
  "Tools",
  "Agents",
  "Document Loaders",
  "Text Splitters",
  "Embeddings",
  "Vector Stores",
  "Output Parsers",
  "Moderation",
  "Utilities",
  "Agent Flows",
]);

export const paramTypeSchema = z.enum([
  "string",
  "number",
  "boolean",
  "options",
  "json",
  "code",
  "file",
  "credential",
  "text",
]);

/** Names of inputs and outputs are identifiers, so handle ids stay parseable. */
const ioNameSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, "must be an identifier");

export const paramInputSchema = z.object({
  kind: z.literal("param"),
  name: ioNameSchema,
  label: z.string(),
  type: paramTypeSchema,
  default: z.unknown().optional(),
  optional: z.boolean().optional(),
  options: z.array(z.object({ label: z.string(), name: z.string(), description: z.string().optional() })).optional(),
  /** For `credential` params: the credential types a builder may pick. */
  credentialTypes: z.array(z.string()).optional(),
  placeholder: z.string().optional(),
  description: z.string().optional(),
  /** Shown under "Additional parameters" in the form. */
  additional: z.boolean().optional(),
  /** For `string` params: a regular expression the value must match. */
  pattern: z.string().optional(),
  /** For `string` params: values offered while typing (a provider's model names); any other value is accepted. */
  suggestions: z.array(z.string()).optional(),
  /** For `string` params: most characters (values stored in indexed columns need a small cap). */
  maxLength: z.number().int().positive().optional(),
  /** For `number` params. */
  min: z.number().optional(),
  max: z.number().optional(),
  integer: z.boolean().optional(),
  /** For `file` params: accepted file extensions, e.g. [".yaml", ".json"]. */
  fileTypes: z.array(z.string()).optional(),
  /**
   * For `text`, `code` and `json` params: the studio's code editor language (common/nodes/editor-hint.ts).
   * `code` defaults to YAML and `json` to JSON; `prompt` marks a prompt template (plain text, wrapped).
   */
  editor: z.enum(["yaml", "json", "prompt"]).optional(),
  /**
   * For `json` params whose values may be `{{…}}` variables (a prompt's values): the anchor whose
   * connected nodes a value may name as `{{nodeId}}`. `{{question}}` and `{{chat_history}}` are
   * always known; any other name is a problem (common/flow/validate.ts).
   */
  variablesFrom: ioNameSchema.optional(),
});

export const anchorInputSchema = z.object({
  kind: z.literal("anchor"),
  name: ioNameSchema,
  label: z.string(),
  /** Type names this anchor accepts; a connection needs one in common with the source output. */
  accepts: z.array(z.string()).min(1),
  optional: z.boolean().optional(),
  /** A list anchor takes any number of edges (e.g. the tools of an agent). */
  list: z.boolean().optional(),
  description: z.string().optional(),
});

export const nodeInputSchema = z.discriminatedUnion("kind", [paramInputSchema, anchorInputSchema]);

export const nodeOutputSchema = z.object({
  name: ioNameSchema,
  label: z.string(),
  types: z.array(z.string()).min(1),
});

/**
 * What a node is, declared instead of checked by name or category elsewhere:
 * - `acceptsImages`: uploaded images reach this node when its boolean param `toggle` is on
 *   (prediction uploads, the widget's image button).
 * - `store`: the upsert API writes to this node, and the studio counts and clears its chunks.
 * - `memory`: the node is the flow's memory; its label is recorded as the messages' memoryType.
 * - `agentflow`: the node is a step of an agentflow (lib/agentflow): `start` (where a run begins),
 *   `step`, or `note` (never run). `branches` names a list param with one output per item
 *   (`branch0`, `branch1`…, before the declared outputs); `loopTarget` the param naming the earlier
 *   node a Loop goes back to; `container` that steps placed inside it (their `parentNode`) are its
 *   sub-graph (an Iteration), drawn as a group on the canvas.
 */
export const nodeCapabilitiesSchema = z
  .object({
    acceptsImages: z.object({ toggle: ioNameSchema }).strict().optional(),
    store: z.enum(["vector", "keyword"]).optional(),
    memory: z.literal(true).optional(),
    agentflow: z
      .object({
        role: z.enum(["start", "step", "note"]),
        branches: ioNameSchema.optional(),
        loopTarget: ioNameSchema.optional(),
        container: z.literal(true).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const nodeDefinitionSchema = z.object({
  name: z.string().regex(/^[a-z][A-Za-z0-9]*$/, "must be a camelCase identifier"),
  version: z.number().int().min(1),
  label: z.string(),
  category: nodeCategorySchema,
  description: z.string(),
  inputs: z.array(nodeInputSchema),
  /** At least one, except for agentflow steps that end their path (Direct Reply, Loop, notes). */
  outputs: z.array(nodeOutputSchema),
  /** Param names of which at least one must have a value (e.g. a spec as text, file or URL). */
  requiresOneOf: z.array(z.string()).optional(),
  capabilities: nodeCapabilitiesSchema.optional(),
});

export type NodeCategory = z.infer<typeof nodeCategorySchema>;
export type ParamType = z.infer<typeof paramTypeSchema>;
export type ParamInput = z.infer<typeof paramInputSchema>;
export type AnchorInput = z.infer<typeof anchorInputSchema>;
export type NodeInput = z.infer<typeof nodeInputSchema>;
export type NodeOutput = z.infer<typeof nodeOutputSchema>;
export type NodeDefinition = z.infer<typeof nodeDefinitionSchema>;
export type NodeCapabilities = z.infer<typeof nodeCapabilitiesSchema>;
export type StoreKind = NonNullable<NodeCapabilities["store"]>;

type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * A definition as written in a node folder: `{…} as const satisfies NodeDefinitionSpec`, so its
 * input names and types stay literal and the runtime's params are typed from them (see define.ts).
 */
export type NodeDefinitionSpec = DeepReadonly<NodeDefinition>;
/** One param input as written in a definition (shared pieces such as the OpenAI base URL). */
export type ParamInputSpec = DeepReadonly<ParamInput>;
/** One input (param or anchor) as written in a definition. */
export type NodeInputSpec = DeepReadonly<NodeInput>;

/** The param inputs of a definition (form fields). */
export function paramInputs(def: NodeDefinition): ParamInput[] {
  return def.inputs.filter((i): i is ParamInput => i.kind === "param");
}

/** The anchor inputs of a definition (connection targets). */
export function anchorInputs(def: NodeDefinition): AnchorInput[] {
  return def.inputs.filter((i): i is AnchorInput => i.kind === "anchor");
}

/**
 * Connection type names used by the nodes. Chains output BaseChain so that a Chain Tool can wrap any
 * of them; only a node providing BaseChain can end a flow.
 */
export const T = {
  chatModel: "BaseChatModel",
  languageModel: "BaseLanguageModel",
  prompt: "BasePromptTemplate",
  chain: "BaseChain",
  /** A chain's answer as text, for another node to use (an LLM chain feeding a prompt's variable). */
  prediction: "ChainPrediction",
  /** Checks a chain's answer against a format (the Output Parsers nodes). */
  outputParser: "BaseLLMOutputParser",
  /** Checks the user's input before any model is asked (the Moderation nodes). */
  moderation: "Moderation",
  memory: "BaseMemory",
  tool: "Tool",
  agent: "AgentExecutor",
  /** An agentflow's control edges: the target step runs after the source. */
  flow: "Agentflow",
} as const;

/** Output types that let a node be the ending node of a flow. */
export const ENDING_TYPES: readonly string[] = [T.chain];

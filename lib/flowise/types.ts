/**
 * Flowise import: the shapes of a Flowise chatflow (as its UI exports it, or inside an API record's
 * `flowData` string) and the interface of one node mapping.
 *
 * ADDING A MAPPING (one Flowise node type → one of our node types):
 * 1. One module `lib/flowise/mappings/<flowiseName>.ts` exporting a `FlowiseMapping` made with
 *    `defineMapping` (./rules.ts), keyed by the Flowise node's `data.name` (e.g. "chatOpenAI").
 * 2. One line in `lib/flowise/mappings/index.ts`.
 * Every Flowise input the mapping does not name is "dropped" when it holds a value, and a dropped
 * input refuses the whole import (400 import_unmapped lists it): so name every input, either mapped
 * (`param`, `anchor`) or explicitly ignored (`ignore`, with the values that mean our behaviour).
 * Custom-code node types are refused by name in ./refused.ts, never mapped.
 */

/** A Flowise canvas node (ReactFlow node with Flowise's `data`). */
export interface FlowiseNode {
  id: string;
  /** "customNode" for nodes, "stickyNote" for notes; in agentflows "agentFlow", "iteration", "stickyNote". */
  type?: string;
  position?: { x: number; y: number };
  /** An agentflow node inside an Iteration: the Iteration's id (its position is then relative to it). */
  parentNode?: string;
  data: {
    id?: string;
    /** The Flowise node type, e.g. "chatOpenAI", "toolAgent", "stickyNote". */
    name: string;
    label?: string;
    version?: number;
    /** Param values and anchor references (`{{nodeId.data.instance}}`, arrays for list anchors). */
    inputs?: Record<string, unknown>;
    /** The Flowise credential id chosen on the node (not importable: credentials stay in Flowise). */
    credential?: string;
    /** For nodes with several outputs: the one selected (`{ output: "outputPrediction" }`). */
    outputs?: Record<string, unknown>;
  };
}

/** A Flowise edge; handles are `<nodeId>-output-<name>-<types>` and `<nodeId>-input-<name>-<type>`. */
export interface FlowiseEdge {
  id?: string;
  source: string;
  sourceHandle?: string;
  target: string;
  targetHandle?: string;
}

export interface FlowiseFlow {
  nodes: FlowiseNode[];
  edges: FlowiseEdge[];
}

/** What converting one input value gives: a value for our param, or why it cannot be kept. */
export type Converted =
  | { value: unknown; warning?: string }
  /** Not kept, and that is fine (our node does the same without it), optionally said in a warning. */
  | { skip: true; warning?: string }
  /** Cannot be kept: the import is refused, listing this input with the reason. */
  | { drop: string };

export interface ConvertContext {
  node: FlowiseNode;
  /** The Flowise input name. */
  input: string;
}

export type Convert = (value: unknown, ctx: ConvertContext) => Converted;

/** How one Flowise input maps. */
export type InputRule =
  /**
   * To our param `to`, converted (default: kept as is). `connections`: the anchor of ours that
   * edges into this Flowise input connect to (Flowise's prompt values take a chain's output).
   */
  | { kind: "param"; to: string; convert?: Convert; connections?: string }
  /** A Flowise anchor: its references/edges become edges into our anchor `to`. */
  | { kind: "anchor"; to: string }
  /**
   * Not imported. `when` (default: always) says which values mean what our node does anyway;
   * other values are dropped with `reason`. `warning`: said in the response when a value is ignored.
   */
  | { kind: "ignore"; when?: (value: unknown) => boolean; reason: string; warning?: string }
  /**
   * An agentflow's embedded component: the input names a Flowise node type (`llmModel: "chatOpenAI"`)
   * and `config` the input holding that node's inputs (`llmModelConfig`). It becomes a node of ours
   * (through the Flowise type's own mapping) connected to our anchor `to`. `list`: the input is a
   * list of `{ [name]: type, [config]: inputs }` (an Agent's tools). `missing`: what a type we have no
   * mapping of does: refuse the import (default), or be left out with a warning to connect one of ours.
   */
  | {
      kind: "component";
      to: string;
      config: string;
      list?: { name: string };
      missing?: "refuse" | "warn";
      /** What the builder connects instead, in the warning ("a tool", "a store"). */
      what: string;
    };

/** One Flowise node type mapped to one of our node types. */
export interface FlowiseMapping {
  /** The Flowise `data.name`, e.g. "chatOpenAI". */
  readonly flowise: string;
  /** Our node type (lib/nodes/registry.ts), e.g. "chatOpenAICompatible". */
  readonly type: string;
  /** Every Flowise input of the node, by Flowise name. Inputs not listed are dropped when set. */
  readonly inputs: Readonly<Record<string, InputRule>>;
  /**
   * Flowise output names (the part after `-output-` in a source handle, or the node's selected
   * `data.outputs.output`) → our output name. Default: the Flowise output named like the node
   * (`data.name`) → our node's only output. Outputs not listed cannot be connected (refused).
   */
  readonly outputs?: Readonly<Record<string, string>>;
  /**
   * Said once in the import's warnings whenever a node of this type is imported: what was mapped to
   * what (a LlamaIndex node onto its LangChain equivalent), so the builder knows to check it.
   */
  readonly note?: string;
  /**
   * Our anchors fed by what feeds another node's input in Flowise, by our anchor name: `{ model: {
   * via: "vectorStoreRetriever", input: "model" } }` connects to our `model` whatever model feeds the
   * node connected at this node's `vectorStoreRetriever` (a LlamaIndex query engine answers with the
   * model given to its vector store).
   */
  readonly borrow?: Readonly<Record<string, { via: string; input: string }>>;
  /** Our credential param: a Flowise credential on the node leaves it empty and warns "connect a credential". */
  readonly credential?: string;
  /**
   * An agentflow step: Flowise's control edges (source handle `<id>-output-<name or index>`, target
   * handle the target's id) connect our `input` anchor. `output` names our output for a Flowise one
   * (default: "output"); undefined refuses the edge.
   */
  readonly step?: { output?: (flowiseOutput: string, node: FlowiseNode) => string | undefined };
  /**
   * Flowise text is rich text here (agentflow steps): params are converted by ./rich-text.ts first,
   * but for the inputs in `except` (code, kept exactly as written).
   */
  readonly richText?: boolean | { except: readonly string[] };
}

/** A Flowise node we cannot import. */
export interface UnmappedNode {
  nodeId: string;
  label: string;
  flowiseType: string;
  reason: string;
}

/** A set Flowise input (or connection) we cannot keep. */
export interface DroppedInput {
  nodeId: string;
  label: string;
  input: string;
  reason: string;
}

/** Said in the 201 answer: imported, but the builder has something to do or to know. */
export interface ImportWarning {
  nodeId: string;
  label: string;
  /** "credential": connect a credential on the node; "approximated": a setting was not carried over. */
  kind: "credential" | "approximated";
  input?: string;
  message: string;
}

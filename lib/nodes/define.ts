import type { AnchorObject } from "./anchor-types";
import type { RuntimeArgs } from "./runtime-types";
import type { NodeDefinition, NodeDefinitionSpec } from "@/common/nodes/types";

/**
 * One node = one object `{ definition, runtime }`, made by `defineNode` in the node's folder and
 * listed once in ./registry.ts. The runtime's `params` and `inputs` are typed from the definition:
 * a `number` param is a number, an `options` param the union of its option names, an optional
 * param without a default may be undefined, and so on; an anchor gives the object its accepted
 * connection type stands for (./anchor-types.ts). So runtimes need no casts.
 */

type JsonValue = Record<string, unknown> | unknown[];

/** The TypeScript type of one param's value after validation (defaults applied). */
type ValueOf<P> = P extends { type: "number" }
  ? number
  : P extends { type: "boolean" }
    ? boolean
    : P extends { type: "options"; options: readonly { name: infer N }[] }
      ? N
      : P extends { type: "json" }
        ? JsonValue
        : string; // string, text, code, file (text or data: URL), credential (an id)

/** Whether a param may be left unset: optional and without a default. */
type MayBeUnset<P> = P extends { default: unknown } ? false : P extends { optional: true } ? true : false;

type ParamOf<D extends NodeDefinitionSpec> = Extract<D["inputs"][number], { kind: "param" }>;
type AnchorOf<D extends NodeDefinitionSpec> = Extract<D["inputs"][number], { kind: "anchor" }>;
type AcceptedObject<A> = A extends { accepts: readonly (infer N)[] } ? AnchorObject<N> : unknown;
type AnchorValue<A> = A extends { list: true } ? AcceptedObject<A>[] : AcceptedObject<A>;

/** One flat object type (readable in editor hovers and comparable in type tests). */
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The validated param values of a definition, by input name (params that may be unset are optional). */
export type ParamsOf<D extends NodeDefinitionSpec> = Flat<
  { [P in ParamOf<D> as MayBeUnset<P> extends true ? never : P["name"]]: ValueOf<P> } & {
    [P in ParamOf<D> as MayBeUnset<P> extends true ? P["name"] : never]?: ValueOf<P>;
  }
>;

/** The built objects of a definition's anchors, by input name: an array for list anchors, optional ones may be unset. */
export type InputsOf<D extends NodeDefinitionSpec> = Flat<
  { [A in AnchorOf<D> as A extends { optional: true; list?: false } ? never : A["name"]]: AnchorValue<A> } & {
    [A in AnchorOf<D> as A extends { optional: true; list?: false } ? A["name"] : never]?: AnchorValue<A>;
  }
>;

/** What the runtime of definition D receives. */
export interface NodeRuntimeArgs<D extends NodeDefinitionSpec> extends Omit<RuntimeArgs, "params" | "inputs"> {
  params: ParamsOf<D>;
  inputs: InputsOf<D>;
}

/** Builds the LangChain object of a node of definition D (server-only). */
export type RuntimeOf<D extends NodeDefinitionSpec> = (args: NodeRuntimeArgs<D>) => Promise<unknown>;

/**
 * Brings the param values of a node saved with an older version of its definition up to the
 * current one. Returns null when they cannot be (the node is refused, naming it).
 */
export type NodeMigration = (inputs: Record<string, unknown>, savedVersion: number) => Record<string, unknown> | null;

/** One choice of a param whose options come from the server (POST /api/v1/nodes/{name}/options). */
export interface NodeOption {
  name: string;
  label: string;
  description?: string;
}

/** Loads the options of one param from what the node connects to (an MCP server's tools), with the node's params. */
export type OptionsLoader = (args: Omit<RuntimeArgs, "inputs">) => Promise<NodeOption[]>;

/** A node type: its definition (plain data, served to the browser) and its server-side parts. */
export interface NodeModule {
  readonly definition: NodeDefinition;
  readonly runtime: (args: RuntimeArgs) => Promise<unknown>;
  readonly migrate: NodeMigration;
  /** Options loaded from the server, by param name (absent: none). */
  readonly loadOptions?: Readonly<Record<string, OptionsLoader>>;
}

const keepInputs: NodeMigration = (inputs) => inputs;

/**
 * Makes a node object from its definition and runtime (and, once the definition has changed
 * incompatibly, a `migrate` hook for nodes saved with an older `version`; identity by default).
 */
export function defineNode<const D extends NodeDefinitionSpec>(spec: {
  definition: D;
  runtime: RuntimeOf<D>;
  migrate?: NodeMigration;
  loadOptions?: Partial<
    Record<ParamOf<D>["name"], (args: Omit<NodeRuntimeArgs<D>, "inputs">) => Promise<NodeOption[]>>
  >;
}): NodeModule {
  return {
    // The spec is the same object, read-only and with literal types; consumers only read it.
    definition: spec.definition as unknown as NodeDefinition,
    // Build passes params parsed by the definition's own schema (paramsSchemaFor), so they are ParamsOf<D>.
    runtime: spec.runtime as unknown as NodeModule["runtime"],
    migrate: spec.migrate ?? keepInputs,
    // Called with params parsed by the definition's own schema, like the runtime.
    loadOptions: spec.loadOptions as NodeModule["loadOptions"],
  };
}

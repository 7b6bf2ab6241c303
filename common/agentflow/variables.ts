/** A message of the conversation (lib/flow's VariableMessage). */
export interface VariableMessage {
  role: "userMessage" | "apiMessage";
  content: string;
}

/** A node's output: `content` is `{{nodeId}}`, other keys `{{nodeId.key}}`. */
export interface VariableOutput {
  content: string;
  [key: string]: unknown;
}

/**
 * Agentflow variables (Flowise's): `{{question}}`, `{{chat_history}}`, `{{$flow.state.key}}`,
 * `{{$flow.sessionId}}`, `{{$flow.chatId}}`, `{{$flow.chatflowId}}`, `{{$form.field}}`, the time of
 * resolving `{{current_date_time}}` (ISO 8601, UTC, as Flowise's), the messages this run's steps
 * added less one `{{runtime_messages_length}}` (Flowise's count), a node's
 * output `{{nodeId}}` and a field of it `{{nodeId.field}}`, global variables `{{$vars.name}}`, the
 * current item of an Iteration `{{$iteration}}` (and `{{$iteration.field}}`) and, where a node
 * writes flow state, `{{output}}` / `{{output.field}}` (its own output). Pure: validation reads the
 * references, the engine resolves them.
 */

const VARIABLE = /\{\{\s*([^{}]+?)\s*\}\}/g;

export type VariableRef =
  | { kind: "question" | "chat_history" }
  | { kind: "current_date_time" | "runtime_messages_length" }
  | { kind: "flow"; key: "sessionId" | "chatId" | "chatflowId" }
  | { kind: "state"; key: string }
  | { kind: "form"; key: string }
  | { kind: "output"; field?: string }
  | { kind: "vars"; key: string }
  | { kind: "iteration"; field?: string }
  | { kind: "node"; nodeId: string; field?: string }
  | { kind: "unknown"; name: string };

/** The names inside `{{…}}` of a text, in order. */
export function variableNames(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1]);
}

/** What a variable name refers to; node ids are matched longest first (an id may hold dots). */
export function readVariable(name: string, nodeIds: ReadonlySet<string>): VariableRef {
  if (name === "question" || name === "chat_history") return { kind: name };
  if (name === "current_date_time" || name === "runtime_messages_length") return { kind: name };
  if (name === "$flow.sessionId" || name === "$flow.chatId" || name === "$flow.chatflowId")
    return { kind: "flow", key: name.slice(6) as "sessionId" | "chatId" | "chatflowId" };
  if (name.startsWith("$flow.state.") && name.length > 12) return { kind: "state", key: name.slice(12) };
  if (name.startsWith("$form.") && name.length > 6) return { kind: "form", key: name.slice(6) };
  if (name.startsWith("$vars.") && name.length > 6) return { kind: "vars", key: name.slice(6) };
  if (name === "$iteration") return { kind: "iteration" };
  if (name.startsWith("$iteration.") && name.length > 11) return { kind: "iteration", field: name.slice(11) };
  if (name === "output") return { kind: "output" };
  if (name.startsWith("output.")) return { kind: "output", field: name.slice(7) };
  if (nodeIds.has(name)) return { kind: "node", nodeId: name };
  for (let dot = name.lastIndexOf("."); dot > 0; dot = name.lastIndexOf(".", dot - 1)) {
    const id = name.slice(0, dot);
    if (nodeIds.has(id)) return { kind: "node", nodeId: id, field: name.slice(dot + 1) };
  }
  return { kind: "unknown", name };
}

/** Everything a variable can be resolved against during a run. */
export interface VariableScope {
  question: string;
  chatHistory: VariableMessage[];
  state: Readonly<Record<string, unknown>>;
  flow: { sessionId: string; chatId: string; chatflowId: string };
  form?: Record<string, unknown>;
  outputs: Readonly<Record<string, VariableOutput>>;
  nodeIds: ReadonlySet<string>;
  /** `{{output}}` while a node writes its flow state. */
  output?: VariableOutput;
  /** Global variables (`{{$vars.name}}`), their values read when the run starts. */
  vars?: Readonly<Record<string, string>>;
  /** The current item of an Iteration (`{{$iteration}}`), inside its sub-graph. */
  iteration?: unknown;
  /** `{{runtime_messages_length}}`: the messages this run's steps added, less one (Flowise's count); 0 when unset. */
  runtimeMessagesLength?: number;
  /** The clock `{{current_date_time}}` reads (default: the system's). */
  now?: () => Date;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** The history as lines `user: …` / `assistant: …`, as `{{chat_history}}` shows it. */
export function historyText(history: VariableMessage[]): string {
  return history.map((m) => `${m.role === "userMessage" ? "user" : "assistant"}: ${m.content}`).join("\n");
}

function fieldOf(output: VariableOutput | undefined, field: string | undefined): unknown {
  if (!output) return undefined;
  return field === undefined ? output.content : output[field];
}

function fieldOfItem(item: unknown, field: string): unknown {
  return item && typeof item === "object" ? (item as Record<string, unknown>)[field] : undefined;
}

/** The value of one variable (undefined when it has none yet, e.g. a node of an untaken branch). */
export function variableValue(ref: VariableRef, scope: VariableScope): unknown {
  switch (ref.kind) {
    case "question":
      return scope.question;
    case "chat_history":
      return historyText(scope.chatHistory);
    case "current_date_time":
      return (scope.now?.() ?? new Date()).toISOString();
    case "runtime_messages_length":
      return String(scope.runtimeMessagesLength ?? 0);
    case "flow":
      return scope.flow[ref.key];
    case "state":
      return scope.state[ref.key];
    case "form":
      return scope.form?.[ref.key];
    case "output":
      return fieldOf(scope.output, ref.field);
    case "node":
      return fieldOf(scope.outputs[ref.nodeId], ref.field);
    case "vars":
      return scope.vars?.[ref.key];
    case "iteration":
      return ref.field === undefined ? scope.iteration : fieldOfItem(scope.iteration, ref.field);
    default:
      return undefined;
  }
}

/** Replaces every `{{…}}` of a text; a variable without a value becomes "" (unknown ones stay as written). */
export function resolveVariables(template: string, scope: VariableScope): string {
  return template.replace(VARIABLE, (whole, name: string) => {
    const ref = readVariable(name, scope.nodeIds);
    return ref.kind === "unknown" ? whole : text(variableValue(ref, scope));
  });
}

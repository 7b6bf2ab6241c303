import { PROCESS_STATE, type ProcessStateName } from "./catalogue";

// The only globalThis property of the app: Next's dev reloads re-evaluate modules, and the
// instrumentation hook and route handlers may load their own copies; this map is shared by all.
const holder = globalThis as unknown as { __switchyardState?: Map<ProcessStateName, unknown> };
const slots = (holder.__switchyardState ??= new Map());

/**
 * The process's one instance of the state named `name` (see catalogue.ts), created by `create` on
 * first use. `create` runs once per process, so a cache subscribes to the bus there.
 */
export function processState<T>(name: ProcessStateName, create: () => T): T {
  if (!slots.has(name)) slots.set(name, create());
  return slots.get(name) as T;
}

/**
 * Forgets a piece of state, as a new process would start without it (tests that simulate a
 * restart). Subscriptions its `create` made stay: drop only state that made none.
 */
export function forgetProcessState(name: ProcessStateName): void {
  slots.delete(name);
}

/** What this process keeps, from the catalogue, and whether each piece exists yet. */
export function listProcessState(): {
  name: ProcessStateName;
  home: string;
  holds: string;
  freshness: string;
  created: boolean;
}[] {
  return (Object.keys(PROCESS_STATE) as ProcessStateName[]).map((name) => {
    const entry: { home: string; holds: string; freshness: string; global?: string } = PROCESS_STATE[name];
    const { home, holds, freshness } = entry;
    return {
      name,
      home,
      holds,
      freshness,
      created: slots.has(name) || (entry.global !== undefined && entry.global in globalThis),
    };
  });
}

import type { PageRequest } from "@/common/schemas/pagination";
import { mapPage, type Page } from "../db/keyset";
import { AppError } from "@/common/errors";
import type { CreateVariableBody, UpdateVariableBody, VariableRecord } from "@/common/schemas/variable";
import type { Variable } from "../db/generated/client";
import { deleteVariableRow, insertVariable, listVariableRows, updateVariableRow } from "../db/queries/variables";
import { getEnv } from "../env";
import { Cache, on, PROCESS_STATE, processState, publishChange, stateBus } from "../state";

/**
 * Global variables (Flowise's Variables): managed by admins, read by every agentflow run when it
 * starts (`{{$vars.name}}`, `$vars` in a Custom Function). A runtime variable reads the server's
 * environment variable of its name, and only a name the operator listed in VARIABLES_FROM_ENV: the
 * environment is never readable beyond that list (docs/security.md).
 */

function toRecord(row: Variable): VariableRecord {
  return {
    id: row.id,
    name: row.name,
    value: row.type === "runtime" ? "" : row.value,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** 400 for a runtime variable whose name the operator did not allow to be read from the environment. */
function assertReadable(name: string, type: Variable["type"]): void {
  if (type !== "runtime") return;
  const allowed = getEnv().VARIABLES_FROM_ENV;
  if (!allowed.includes(name))
    throw new AppError(
      "bad_request",
      `Variable "${name}" cannot read the server's environment: only names in VARIABLES_FROM_ENV may (${allowed.length ? allowed.join(", ") : "none are listed"}).`,
    );
}

async function uniqueName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if ((e as { code?: unknown }).code === "P2002")
      throw new AppError("conflict", `A variable named "${name}" already exists.`);
    throw e;
  }
}

/** Every variable, by name (runtime values are never sent); a page of them with `page`. */
export async function listVariables(page?: PageRequest): Promise<Page<VariableRecord>> {
  return mapPage(await listVariableRows(page), toRecord);
}

/** Creates a variable; 409 for a name in use, 400 for a runtime name outside VARIABLES_FROM_ENV. */
export async function createVariable(body: CreateVariableBody): Promise<VariableRecord> {
  assertReadable(body.name, body.type);
  const row = await uniqueName(body.name, () => insertVariable({ data: body }));
  await publishChange({ type: "variables.changed" });
  return toRecord(row);
}

/** Changes a variable's name, value or type; 404 when unknown. */
export async function updateVariable(id: string, body: UpdateVariableBody): Promise<VariableRecord> {
  const current = (await listVariableRows()).items.find((v) => v.id === id);
  if (!current) throw new AppError("not_found", `Variable ${id} not found.`);
  assertReadable(body.name ?? current.name, body.type ?? current.type);
  const data = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.value !== undefined ? { value: body.value } : {}),
    ...(body.type !== undefined ? { type: body.type } : {}),
  };
  const row = await uniqueName(body.name, () => updateVariableRow({ id, data }));
  if (!row) throw new AppError("not_found", `Variable ${id} not found.`);
  await publishChange({ type: "variables.changed" });
  return toRecord(row);
}

/** Deletes a variable; 404 when unknown. Flows that name it show the problem when next checked. */
export async function deleteVariable(id: string): Promise<{ deleted: true; id: string }> {
  if (!(await deleteVariableRow({ id }))) throw new AppError("not_found", `Variable ${id} not found.`);
  await publishChange({ type: "variables.changed" });
  return { deleted: true, id };
}

/**
 * The stored variables, as every agentflow run reads them: cached ("variableValues" in
 * lib/state/catalogue.ts), dropped by variables.changed.
 */
const storedVariables = processState("variableValues", () => {
  const cache = new Cache<Variable[]>(PROCESS_STATE.variableValues.cache);
  stateBus().subscribe(on({ "variables.changed": () => cache.clear(), "state.resync": () => cache.clear() }));
  return cache;
});

/** The values a run sees as `$vars`: static ones as stored, runtime ones from the allowed environment (read now). */
export async function variableValues(): Promise<Record<string, string>> {
  const allowed = getEnv().VARIABLES_FROM_ENV;
  const rows = (await storedVariables.get("all", async () => (await listVariableRows()).items)) ?? [];
  return Object.fromEntries(
    rows.map((v) => [
      v.name,
      v.type === "runtime" ? (allowed.includes(v.name) ? (process.env[v.name] ?? "") : "") : v.value,
    ]),
  );
}

/** The names of the variables (what `{{$vars.name}}` may name). */
export async function variableNames(): Promise<Set<string>> {
  return new Set((await listVariableRows()).items.map((v) => v.name));
}

import { getDb } from "../client";
import type { VariableType } from "../generated/enums";

/** Global variables (Variable rows). */

export async function listVariableRows() {
  return (await getDb()).variable.findMany({ orderBy: { name: "asc" } });
}

export async function insertVariable({ data }: { data: { name: string; value: string; type: VariableType } }) {
  return (await getDb()).variable.create({ data });
}

/** Changes a variable; null when it is gone. */
export async function updateVariableRow({
  id,
  data,
}: {
  id: string;
  data: Partial<{ name: string; value: string; type: VariableType }>;
}) {
  const db = await getDb();
  const { count } = await db.variable.updateMany({ where: { id }, data });
  return count ? db.variable.findUnique({ where: { id } }) : null;
}

/** Deletes a variable; false when it was gone. */
export async function deleteVariableRow({ id }: { id: string }) {
  const { count } = await (await getDb()).variable.deleteMany({ where: { id } });
  return count > 0;
}

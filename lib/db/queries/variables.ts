import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import type { VariableType } from "../generated/enums";

/** Global variables (Variable rows). */

export async function listVariableRows(page?: PageRequest) {
  const keyset = keysetArgs(VARIABLE_ORDER, page);
  const rows = await (await getDb()).variable.findMany({
    where: keyset.where,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, VARIABLE_ORDER, page);
}

const VARIABLE_ORDER: KeysetOrder = { list: "variables", field: "name", direction: "asc", kind: "string" };

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

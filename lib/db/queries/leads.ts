import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";

/** The Lead table: contact details left in the widget's lead form, removed with their chatflow. */

export async function insertLead(input: {
  chatflowId: string;
  chatId: string;
  name: string;
  email: string;
  phone: string;
}) {
  return (await getDb()).lead.create({ data: input });
}

export async function findLeads(args: { chatflowId: string; chatId?: string; page?: PageRequest }) {
  const keyset = keysetArgs(LEAD_ORDER, args.page);
  const rows = await (await getDb()).lead.findMany({
    where: { AND: [{ chatflowId: args.chatflowId, ...(args.chatId ? { chatId: args.chatId } : {}) }, keyset.where] },
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, LEAD_ORDER, args.page);
}

const LEAD_ORDER: KeysetOrder = { list: "leads", field: "createdAt", direction: "asc", kind: "date" };

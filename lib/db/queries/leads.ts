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

export async function findLeads(args: { chatflowId: string; chatId?: string }) {
  return (await getDb()).lead.findMany({
    where: { chatflowId: args.chatflowId, ...(args.chatId ? { chatId: args.chatId } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

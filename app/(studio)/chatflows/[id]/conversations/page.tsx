import { ConversationsView } from "@/components/conversations/ConversationsView";

export default async function ConversationsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ConversationsView chatflowId={id} />;
}

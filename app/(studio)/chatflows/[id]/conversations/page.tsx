import { ConversationsView } from "@/components/conversations/ConversationsView";
import { PageHeader } from "@/components/ui/controls";
import { getStudioUser } from "@/lib/auth/studio-user";
import { roleMay } from "@/common/access/permissions";

export default async function ConversationsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getStudioUser();
  // The Message API answers builders 403 "Admins only."; the page says the same instead of failing.
  if (!user || !roleMay(user.role, "chatmessage.read")) {
    return <PageHeader title="Conversations" subtitle="Admins only." />;
  }
  return <ConversationsView chatflowId={id} />;
}

import { redirect } from "next/navigation";
import { ExecutionsView } from "@/components/executions/ExecutionsView";
import { getStudioUser } from "@/lib/auth/studio-user";
import { roleMay } from "@/common/access/permissions";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function ExecutionsPage({ searchParams }: { searchParams: Promise<{ agentflowId?: string }> }) {
  const user = await getStudioUser();
  if (!user || !roleMay(user.role, "execution.read")) redirect("/chatflows");
  const { agentflowId } = await searchParams;
  // Anything but a flow id lists every run (the API would refuse it with a 400).
  return <ExecutionsView agentflowId={agentflowId && UUID.test(agentflowId) ? agentflowId : undefined} />;
}

import { redirect } from "next/navigation";
import { getStudioUser } from "@/lib/auth/studio-user";
import { roleMay } from "@/common/access/permissions";
import { agentflowPalette } from "@/common/agentflow/palette";
import { nodeDefinitions } from "@/lib/nodes/registry";
import { StudioExecution } from "./studio-execution";

/** The definitions the run's canvas draws with: an agentflow's steps and what feeds them (plain data). */
const agentflowDefinitions = agentflowPalette(nodeDefinitions);

export default async function ExecutionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await getStudioUser();
  if (!user || !roleMay(user.role, "execution.read")) redirect("/chatflows");
  const { id } = await params;
  return <StudioExecution id={id} definitions={agentflowDefinitions} />;
}

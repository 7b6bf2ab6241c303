import { redirect } from "next/navigation";
import { ExecutionDetailView } from "@/components/executions/ExecutionDetailView";
import { getStudioUser } from "@/lib/auth/studio-user";
import { roleMay } from "@/common/access/permissions";

export default async function ExecutionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await getStudioUser();
  if (!user || !roleMay(user.role, "execution.read")) redirect("/chatflows");
  const { id } = await params;
  return <ExecutionDetailView id={id} />;
}

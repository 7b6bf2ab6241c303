import { redirect } from "next/navigation";
import { QueueView } from "@/components/studio/QueueView";
import { getStudioUser } from "@/lib/auth/studio-user";
import { roleMay } from "@/common/access/permissions";

export default async function QueuePage() {
  const user = await getStudioUser();
  if (!user || !roleMay(user.role, "queue.view")) redirect("/chatflows");
  return <QueueView />;
}

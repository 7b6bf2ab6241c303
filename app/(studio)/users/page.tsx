import { redirect } from "next/navigation";
import { UserManager } from "@/components/studio/UserManager";
import { getStudioUser } from "@/lib/auth/studio-user";
import { roleMay } from "@/common/access/permissions";

export default async function UsersPage() {
  const user = await getStudioUser();
  if (!user || !roleMay(user.role, "user.manage")) redirect("/chatflows");
  return <UserManager />;
}

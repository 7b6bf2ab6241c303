import { redirect } from "next/navigation";
import { UserManager } from "@/components/studio/UserManager";
import { getStudioUser } from "@/lib/auth/studio-user";

export default async function UsersPage() {
  const user = await getStudioUser();
  if (user?.role !== "admin") redirect("/chatflows");
  return <UserManager />;
}

import { redirect } from "next/navigation";
import { StudioNav } from "@/components/studio/StudioNav";
import { StudioUserProvider } from "@/components/studio/StudioUser";
import { getStudioUser } from "@/lib/auth/studio-user";
import { needsSetup } from "@/lib/services/users";

export const dynamic = "force-dynamic";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const user = await getStudioUser();
  if (!user) redirect((await needsSetup()) ? "/setup" : "/signin");
  return (
    <StudioUserProvider user={{ id: user.id, name: user.name, email: user.email, role: user.role }}>
      <StudioNav user={{ name: user.name, email: user.email, role: user.role }} />
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </StudioUserProvider>
  );
}

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { StudioShell } from "@/components/studio/StudioShell";
import { getStudioUser } from "@/lib/auth/studio-user";
import { needsSetup } from "@/lib/services/users";
import { PAGE_PATH_HEADER, signInPathFor } from "@/common/auth/return-path";

export const dynamic = "force-dynamic";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const user = await getStudioUser();
  // Sign-in comes back to the page asked for (proxy.ts passes its path; only same-site paths are kept).
  if (!user) redirect((await needsSetup()) ? "/setup" : signInPathFor((await headers()).get(PAGE_PATH_HEADER)));
  return <StudioShell user={user}>{children}</StudioShell>;
}

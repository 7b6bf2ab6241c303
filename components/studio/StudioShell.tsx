import { StudioNav } from "./StudioNav";
import { StudioUserProvider } from "./StudioUser";
import type { Role } from "@/lib/db/generated/enums";

export type ShellUser = { id: string; name: string; email: string; role: Role };

/** The studio's frame: the navigation bar and the page's main area (studio pages, 404 and error pages). */
export function StudioShell({ user, children }: { user: ShellUser; children: React.ReactNode }) {
  return (
    <StudioUserProvider user={{ id: user.id, name: user.name, email: user.email, role: user.role }}>
      <StudioNav user={{ name: user.name, email: user.email, role: user.role }} />
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </StudioUserProvider>
  );
}

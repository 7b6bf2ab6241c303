import { skipLinkClass } from "@/components/ui/controls";
import { StudioNav } from "./StudioNav";
import { StudioUserProvider, type StudioUserInfo } from "./StudioUser";

/** The studio's frame: the navigation bar and the page's main area (studio pages, 404 and error pages). */
export function StudioShell({ user, children }: { user: StudioUserInfo; children: React.ReactNode }) {
  return (
    <StudioUserProvider user={{ id: user.id, name: user.name, email: user.email, role: user.role }}>
      {/* Skip links: the first stops of Tab. Pages add their own here (the editor: "Skip to test chat"). */}
      <div id="skip-links" className="contents">
        <a href="#main" className={skipLinkClass}>
          Skip to main content
        </a>
      </div>
      <StudioNav user={{ name: user.name, email: user.email, role: user.role }} />
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-6 py-8 outline-none">
        {children}
      </main>
    </StudioUserProvider>
  );
}

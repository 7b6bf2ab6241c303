import Link from "next/link";
import { StudioShell } from "@/components/studio/StudioShell";
import { getStudioUser } from "@/lib/auth/studio-user";

export const metadata = { title: "Page not found · Switchyard" };

/** Any page that does not exist: inside the studio's frame for a signed-in person, else a plain card. */
export default async function NotFound() {
  const user = await getStudioUser();
  const body = (
    <section aria-labelledby="not-found-title" className="max-w-xl">
      <p className="text-sm font-medium text-brand-700">404</p>
      <h1 id="not-found-title" className="mt-1 text-2xl font-semibold tracking-tight">
        Page not found
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        There is no page at this address. It may have been deleted, or the link may be mistyped.
      </p>
      <Link
        href={user ? "/chatflows" : "/signin"}
        className="mt-5 inline-flex rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
      >
        {user ? "Back to chatflows" : "Sign in"}
      </Link>
    </section>
  );
  if (user) return <StudioShell user={user}>{body}</StudioShell>;
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-50 to-brand-50 p-6">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">{body}</div>
    </main>
  );
}

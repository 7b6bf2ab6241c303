"use client";

import { ErrorPanel } from "@/components/ui/ErrorPanel";

/** An error outside the studio's pages (sign-in, setup…): the same words on a plain card. */
export default function RootError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-50 to-brand-50 p-6">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <ErrorPanel error={error} reset={reset} />
      </div>
    </main>
  );
}

"use client";

/** What an error page says: a sentence, the error's reference when there is one, and a way to try again. */
export function ErrorPanel({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section aria-labelledby="error-title" className="max-w-xl">
      <p className="text-sm font-medium text-red-700">Something went wrong</p>
      <h1 id="error-title" className="mt-1 text-2xl font-semibold tracking-tight">
        This page could not be shown
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        The studio hit an error while showing this page. Try again; if it keeps happening, tell your admin
        {error.digest ? (
          <>
            {" "}
            and give them the reference <code className="rounded bg-slate-100 px-1">{error.digest}</code>
          </>
        ) : null}
        .
      </p>
      <div className="mt-5 flex gap-2">
        <button
          type="button"
          onClick={reset}
          className="inline-flex rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
        >
          Try again
        </button>
        <a
          href="/chatflows"
          className="inline-flex rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 ring-1 ring-slate-300 hover:bg-slate-50"
        >
          Back to chatflows
        </a>
      </div>
    </section>
  );
}

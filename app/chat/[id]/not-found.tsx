import { headers } from "next/headers";
import Link from "next/link";
import { PAGE_PATH_HEADER, signInPathFor } from "@/common/auth/return-path";
import { getChatPageView } from "@/lib/services/public-chatbot";
import RootNotFound from "../../not-found";
import { chatPageCaller } from "./chat-page-caller";

const button = "mt-5 inline-flex rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700";

/**
 * The full-page chat when page.tsx found no public chatflow (HTTP 404 either way). To anyone, only
 * that the chat is not available: private, or no chat at all (the same page, so it tells nobody
 * which ids exist); to a private flow's managers, signed in, which flow it is and how to make it
 * public. A path that is no chat id is the plain not-found page. The id comes from the path
 * proxy.ts sets on every page request (a not-found file gets no params).
 */
export default async function ChatNotFound() {
  const path = (await headers()).get(PAGE_PATH_HEADER) ?? "";
  const id = /^\/chat\/([^/?#]+)/.exec(path)?.[1] ?? "";
  const caller = await chatPageCaller();
  const view = id ? await getChatPageView(decodeURIComponent(id), caller) : null;
  if (!view || view.kind === "public") return <RootNotFound />;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-br from-slate-50 to-brand-50 p-6">
      <section
        aria-labelledby="chat-private-title"
        className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
        data-testid="chat-not-public"
      >
        {view.kind === "private-managed" ? (
          <>
            <h1 id="chat-private-title" className="text-xl font-semibold tracking-tight">
              “{view.name}” is private
            </h1>
            <p className="mt-2 text-sm text-slate-600">
              Visitors of this link only see that the chat is not public. To share it, open the flow, choose{" "}
              <strong>Publish</strong>, turn on <strong>Public</strong> and save the settings.
            </p>
            <p className="mt-2 text-sm text-slate-600">
              {view.publishedVersion === null
                ? "No version is published yet: once it is public, visitors chat with the latest saved version until you publish one."
                : `Once it is public, visitors chat with the published version (${view.publishedVersion}).`}
            </p>
            <Link href={`/chatflows/${view.chatflowId}`} className={button}>
              Open the flow
            </Link>
          </>
        ) : (
          <>
            <h1 id="chat-private-title" className="text-xl font-semibold tracking-tight">
              This chat is not public
            </h1>
            <p className="mt-2 text-sm text-slate-600">
              Its owner has not made it available to visitors (yet), or there is no chat at this address. If someone
              shared this link with you, ask them to make the chat public.
            </p>
            {caller.kind === "anonymous" && (
              <Link href={signInPathFor(path)} className={button}>
                Sign in if you built it
              </Link>
            )}
          </>
        )}
      </section>
    </main>
  );
}

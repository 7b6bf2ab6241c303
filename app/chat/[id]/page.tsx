import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getChatPageView } from "@/lib/services/public-chatbot";
import { FullPageChat } from "./full-page-chat";
import { chatPageCaller } from "./chat-page-caller";

/** The shareable full-page chatbot of a public chatflow: no studio shell, no sign-in. */
type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const view = await getChatPageView((await params).id, await chatPageCaller());
  const title = view?.kind === "public" ? view.title : view ? "Chat not public" : "Chat not found";
  return { title, robots: { index: false } };
}

export default async function ChatPage({ params }: Props) {
  // A private chatflow answers 404 like an unknown one (as GET /public-chatbotConfig/{id} does), but
  // not-found.tsx beside this page says it is not public (and, to its managers, how to make it so).
  const view = await getChatPageView((await params).id, await chatPageCaller());
  if (view?.kind !== "public") notFound();
  return (
    <main className="h-dvh w-full">
      <h1 className="sr-only">{view.title}</h1>
      <FullPageChat chatflowId={view.chatflowId} />
    </main>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getPublicChatPage } from "@/lib/services/public-chatbot";
import { FullPageChat } from "./full-page-chat";

/** The shareable full-page chatbot of a public chatflow: no studio shell, no sign-in. */
type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = await getPublicChatPage((await params).id);
  return { title: page ? page.title : "Chat not found", robots: { index: false } };
}

export default async function ChatPage({ params }: Props) {
  // A private or unknown chatflow is the same 404 to everyone, as GET /public-chatbotConfig/{id} answers.
  const page = await getPublicChatPage((await params).id);
  if (!page) notFound();
  return (
    <main className="h-dvh w-full">
      <h1 className="sr-only">{page.title}</h1>
      <FullPageChat chatflowId={page.chatflowId} />
    </main>
  );
}

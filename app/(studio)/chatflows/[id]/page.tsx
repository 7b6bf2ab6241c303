import { ChatflowEditor } from "@/components/canvas/Editor";

export default async function ChatflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ChatflowEditor id={id} />;
}

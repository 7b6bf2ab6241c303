import { StudioChatflowEditor } from "./studio-editor";

export default async function ChatflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <StudioChatflowEditor id={id} />;
}

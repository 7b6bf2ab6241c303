import { chatflowNodeDefinitions } from "@/lib/nodes/registry";
import { StudioChatflowEditor } from "./studio-editor";

export default async function ChatflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The definitions only (plain data): the node runtimes stay on the server. Agentflow steps have
  // their own palette (issue 32, a later slice), not the chatflow one.
  return <StudioChatflowEditor id={id} definitions={chatflowNodeDefinitions} />;
}

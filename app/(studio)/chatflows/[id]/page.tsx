import { nodeDefinitions } from "@/lib/nodes/registry";
import { StudioChatflowEditor } from "./studio-editor";

export default async function ChatflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The definitions only (plain data): the node runtimes stay on the server.
  return <StudioChatflowEditor id={id} definitions={nodeDefinitions} />;
}

import { ChatflowEditor } from "@/components/canvas/Editor";
import { nodeDefinitions } from "@/lib/nodes/registry";

export default async function ChatflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The definitions only (plain data): the node runtimes stay on the server.
  return <ChatflowEditor id={id} definitions={nodeDefinitions} />;
}

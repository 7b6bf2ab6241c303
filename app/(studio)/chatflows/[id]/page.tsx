import { agentflowPalette } from "@/common/agentflow/palette";
import { chatflowNodeDefinitions, nodeDefinitions } from "@/lib/nodes/registry";
import { StudioChatflowEditor } from "./studio-editor";

/** An agentflow's palette: its steps and the models, tools and stores they connect to. */
const agentflowDefinitions = agentflowPalette(nodeDefinitions);

export default async function ChatflowEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The definitions only (plain data): the node runtimes stay on the server. Both palettes are sent;
  // the editor takes the one of the flow's type (a chatflow's leaves agentflow steps out).
  return (
    <StudioChatflowEditor id={id} definitions={chatflowNodeDefinitions} agentflowDefinitions={agentflowDefinitions} />
  );
}

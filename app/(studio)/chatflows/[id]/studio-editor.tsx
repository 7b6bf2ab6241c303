"use client";

import { ChatPanel } from "@/components/chat/ChatPanel";
import { ChatflowEditor } from "@/components/canvas/Editor";
import type { EditorSlots } from "@/components/canvas/editor-slots";
import type { NodeDefinition } from "@/common/nodes/types";
import { EmbedPanel } from "@/components/publish/EmbedPanel";
import { VectorStorePanel } from "@/components/vector/VectorStorePanel";
import { TestsPanel } from "@/components/tests/TestsPanel";

/** The studio's editor slots: each filled by the feature that owns it (the canvas imports none). */
export const studioSlots: EditorSlots = {
  chatPanel: (props) => <ChatPanel {...props} />,
  testsPanel: (props) => <TestsPanel {...props} />,
  embedPanel: (props) => <EmbedPanel {...props} />,
  storePanel: (props) => <VectorStorePanel {...props} />,
};

/** The chatflow editor with the test chat, the Tests tab, the widget embed and store uploads plugged in. */
export function StudioChatflowEditor({
  id,
  definitions,
  agentflowDefinitions,
}: {
  id: string;
  definitions: readonly NodeDefinition[];
  agentflowDefinitions: readonly NodeDefinition[];
}) {
  return (
    <ChatflowEditor id={id} definitions={definitions} agentflowDefinitions={agentflowDefinitions} slots={studioSlots} />
  );
}

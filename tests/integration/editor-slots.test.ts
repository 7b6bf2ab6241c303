// The canvas feature imports no other feature: the test chat, the widget embed and the store
// uploads reach the editor through slots that the studio page fills (server-rendered markup).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { studioSlots } from "../../app/(studio)/chatflows/[id]/studio-editor";
import { type EditorSlots, EditorSlotsProvider } from "../../components/canvas/editor-slots";
import { EditorProvider } from "../../components/canvas/editor-context";
import { PublishDialog } from "../../components/canvas/PublishDialog";
import { createEditorStore } from "@/browser/canvas/editor-store";
import { nodeCatalog } from "@/common/nodes/catalog";
import { nodeDefinitions } from "../../lib/nodes/registry";
import type { Chatflow } from "../../components/canvas/use-chatflow";
import { ChatPanel } from "../../components/chat/ChatPanel";
import { EmbedPanel } from "../../components/publish/EmbedPanel";
import { VectorStorePanel } from "../../components/vector/VectorStorePanel";

const flow: Chatflow = {
  id: "00000000-0000-4000-8000-0000000000f1",
  name: "Shop bot",
  description: "",
  type: "CHATFLOW",
  version: 3,
  publishedVersion: null,
  requirePassingTests: false,
  graph: { nodes: [], edges: [] },
  isPublic: false,
  allowedOrigins: [],
  rateLimit: null,
  overrideAllowList: [],
  chatbotConfig: {},
  speechToText: {},
  ownerId: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

function renderDialog(slots?: EditorSlots) {
  const store = createEditorStore(nodeCatalog(nodeDefinitions));
  const dialog = createElement(
    EditorProvider,
    { value: store },
    createElement(PublishDialog, {
      flow,
      graph: () => ({ nodes: [], edges: [] }),
      dirty: false,
      onSaveVersion: async () => undefined,
      onClose: () => {},
    }),
  );
  const inner: ReactNode = slots ? createElement(EditorSlotsProvider, { value: slots }, dialog) : dialog;
  return renderToString(createElement(QueryClientProvider, { client: new QueryClient() }, inner));
}

describe("editor slots", () => {
  it("renders the embed slot inside the publish dialog with the chatflow's id and visibility", () => {
    const seen: unknown[] = [];
    const html = renderDialog({
      embedPanel: (props) => {
        seen.push(props);
        return createElement("p", { "data-testid": "embed-slot" }, "embed here");
      },
    });
    // The unsaved chatbot settings go along for the live preview (the saved ones at first).
    expect(seen).toEqual([{ chatflowId: flow.id, isPublic: false, chatbotConfig: {} }]);
    expect(html).toContain("Embed the chat widget");
    expect(html).toContain('data-testid="embed-slot"');
  });

  it("leaves an empty slot empty", () => {
    const html = renderDialog();
    expect(html).toContain("Embed the chat widget");
    expect(html).not.toContain("Embed widget");
  });

  it("the studio fills every slot with the owning feature's component, props passed through", () => {
    const chat = {
      chatflowId: flow.id,
      dirty: true,
      onClose: () => {},
      onServerProblems: () => {},
      onShowNode: () => false,
    };
    const embed = { chatflowId: flow.id, isPublic: true };
    const store = { chatflowId: flow.id, nodeId: "faiss_0", dirty: false, savedFiles: 2 };
    const filled = [
      [studioSlots.chatPanel?.(chat), ChatPanel, chat],
      [studioSlots.embedPanel?.(embed), EmbedPanel, embed],
      [studioSlots.storePanel?.(store), VectorStorePanel, store],
    ] as const;
    for (const [element, component, props] of filled) {
      expect((element as ReactElement).type).toBe(component);
      expect((element as ReactElement).props).toEqual(props);
    }
    // The real embed panel renders in the dialog through the studio's slot.
    expect(renderDialog(studioSlots)).toContain('aria-label="Embed widget"');
  });
});

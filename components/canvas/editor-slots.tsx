"use client";

import { createContext, type ReactNode, useContext } from "react";
import type { EditorStore } from "@/browser/canvas/editor-store";
import type { ChatbotConfig } from "@/common/schemas/chatflow";

/** What the editor hands the test-chat slot beside the canvas. */
export type ChatPanelSlotProps = {
  chatflowId: string;
  /** The canvas has unsaved changes (the chat runs the last saved version). */
  dirty: boolean;
  onClose: () => void;
  /** Problems the server found when it ran the flow, shown on the nodes. */
  onServerProblems: EditorStore["setServerProblems"];
  /** Selects a node of the canvas and brings it into view (e.g. the node a failed run names); false when it is not there. */
  onShowNode: (nodeId: string) => boolean;
};

/** What the editor hands the Tests tab beside the canvas (cases and runs of the chatflow). */
export type TestsPanelSlotProps = {
  chatflowId: string;
  /** The draft's version number (the latest save). */
  version: number;
  dirty: boolean;
  onClose: () => void;
};

/** What the publish dialog hands the embed-the-widget slot. */
export type EmbedPanelSlotProps = {
  chatflowId: string;
  isPublic: boolean;
  /** The chatbot settings being edited, unsaved (the live preview shows them). */
  chatbotConfig?: ChatbotConfig;
};

/** What a store node (vector or keyword store) hands the slot under its params. */
export type StorePanelSlotProps = {
  chatflowId: string;
  nodeId: string;
  dirty: boolean;
  /** How many loaders connected to this store have a file saved in the graph (they can be indexed). */
  savedFiles: number;
};

/**
 * Parts of the editor that other features fill: the canvas feature never imports them; the page
 * that composes the studio passes render functions. An empty slot renders nothing.
 */
export type EditorSlots = {
  chatPanel?: (props: ChatPanelSlotProps) => ReactNode;
  testsPanel?: (props: TestsPanelSlotProps) => ReactNode;
  embedPanel?: (props: EmbedPanelSlotProps) => ReactNode;
  storePanel?: (props: StorePanelSlotProps) => ReactNode;
};

const noSlots: EditorSlots = {};
const EditorSlotsContext = createContext<EditorSlots>(noSlots);

export const EditorSlotsProvider = EditorSlotsContext.Provider;

/** The slots the page gave the editor (all empty outside a provider). */
export function useEditorSlots(): EditorSlots {
  return useContext(EditorSlotsContext);
}

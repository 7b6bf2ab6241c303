"use client";

import type { NodeDefinition } from "@/common/nodes/types";
import { RunCanvas } from "@/components/canvas/RunCanvas";
import { ExecutionDetailView } from "@/components/executions/ExecutionDetailView";
import type { RunCanvasSlot } from "@/components/executions/RunPathSection";

/** The run's canvas: the studio's canvas (components/canvas), plugged into the Executions view. */
const runCanvas: RunCanvasSlot = (props) => <RunCanvas {...props} />;

/** One run of an agentflow, with the path it took lit on the canvas. */
export function StudioExecution({ id, definitions }: { id: string; definitions: readonly NodeDefinition[] }) {
  return <ExecutionDetailView id={id} definitions={definitions} canvas={runCanvas} />;
}

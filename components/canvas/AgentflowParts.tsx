"use client";

import { Handle, Position, useStore, type ReactFlowState } from "@xyflow/react";
import { type ReactNode, useCallback } from "react";
import { groupSize, LOOP_BACK_HANDLE, loopTargetOf } from "@/browser/canvas/agentflow";
import type { NodeDefinition } from "@/common/nodes/types";
import { useEditorState } from "./editor-context";

/** Invisible ends of a Loop's back edge: drawn by the canvas, never connected by hand. */
const hiddenHandle = "h-1! w-1! min-h-0! min-w-0! border-0! bg-transparent! opacity-0";

/** Where a Loop's back edge arrives on a step (its top) and leaves a Loop (its bottom). */
export function LoopBackHandles({ nodeId, loop }: { nodeId: string; loop: boolean }) {
  const id = `${nodeId}:${LOOP_BACK_HANDLE}`;
  return (
    <>
      <Handle type="target" position={Position.Top} id={id} isConnectable={false} className={hiddenHandle} />
      {loop && (
        <Handle type="source" position={Position.Bottom} id={id} isConnectable={false} className={hiddenHandle} />
      )}
    </>
  );
}

/** A Loop's footer: the step it goes back to ("↩ to …"), or that none is chosen yet. */
export function LoopFooter({ nodeId, def }: { nodeId: string; def: NodeDefinition }) {
  const param = def.capabilities?.agentflow?.loopTarget;
  const target = useEditorState(
    useCallback(
      (s) => {
        const self = s.nodes.find((n) => n.id === nodeId);
        const id = param && loopTargetOf(self?.data.inputs[param], new Set(s.nodes.map((n) => n.id)));
        const node = id ? s.nodes.find((n) => n.id === id) : undefined;
        return node ? `${node.data.label || node.id}` : undefined;
      },
      [nodeId, param],
    ),
  );
  return (
    <p
      className="px-3 py-1.5 text-right text-xs font-medium text-fuchsia-700"
      data-testid="loop-target"
      title={target ? undefined : "Name an earlier step in “Loop back to”."}
    >
      {target ? `↩ to ${target}` : "↩ to (no step chosen)"}
    </p>
  );
}

/**
 * A group step (an Iteration): its form at the top left, and a framed area holding the steps placed
 * inside it (React Flow children: `parentId`, kept inside by `extent: "parent"`), sized to fit them.
 */
export function GroupFrame({ nodeId, label, children }: { nodeId: string; label: string; children: ReactNode }) {
  const key = useStore(
    useCallback(
      (s: ReactFlowState) => {
        const inside: string[] = [];
        for (const n of s.nodeLookup.values()) {
          if (n.parentId !== nodeId) continue;
          inside.push(`${n.position.x},${n.position.y},${n.measured.width ?? ""},${n.measured.height ?? ""}`);
        }
        return inside.join(";");
      },
      [nodeId],
    ),
  );
  const inside = key
    ? key.split(";").map((c) => {
        const [x, y, w, h] = c.split(",");
        return {
          position: { x: Number(x), y: Number(y) },
          measured: { width: w ? Number(w) : undefined, height: h ? Number(h) : undefined },
        };
      })
    : [];
  // The frame grows with the form too (it is in the flow of the frame): only the steps inside set its size here.
  const size = groupSize(inside, 0);
  return (
    <div
      data-testid="group-frame"
      title={`${label}: the steps inside run once per item`}
      className="relative rounded-2xl border-2 border-dashed border-fuchsia-300 bg-fuchsia-50/40"
      style={{ width: size.width, minHeight: size.height }}
    >
      <p className="absolute left-[296px] top-3 text-xs font-semibold uppercase tracking-wide text-fuchsia-700">
        For each item{key ? "" : ": no steps inside yet"}
      </p>
      {children}
    </div>
  );
}

"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/browser/client/api";
import type { ExecutionDetail } from "@/common/schemas/execution";
import { predictionResponseSchema } from "@/common/schemas/prediction-stream";
import { Button, Card, ErrorNote } from "@/components/ui/controls";
import { showValue } from "./format";

type Decision = "proceed" | "reject";

/**
 * Approve or reject a run waiting at Human Input: resumes its chat with Flowise's `humanInput` (the
 * node it waits at, the optional feedback) through the prediction API, as any client would.
 */
export function HumanDecision({ run, onDecided }: { run: ExecutionDetail; onDecided: () => void }) {
  const [feedback, setFeedback] = useState("");
  const action = run.action!;
  const decide = useMutation({
    mutationFn: (type: Decision) =>
      api(`/api/v1/prediction/${run.agentflowId}`, {
        method: "POST",
        schema: predictionResponseSchema,
        body: {
          chatId: run.chatId,
          overrideConfig: { sessionId: run.sessionId },
          humanInput: {
            type,
            startNodeId: action.data.nodeId,
            ...(feedback.trim() ? { feedback: feedback.trim() } : {}),
          },
        },
      }),
    onSettled: onDecided,
  });
  const question = action.data.input;
  return (
    <Card className="mb-4 border-amber-300 p-4">
      <h2 className="text-sm font-semibold">Waiting at “{action.data.nodeLabel}”</h2>
      {question !== undefined && (
        <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700">{showValue(question)}</p>
      )}
      <label className="mt-3 flex flex-col gap-1 text-sm">
        <span className="font-medium text-slate-700">Feedback (optional)</span>
        <textarea
          className="min-h-16 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
      </label>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button disabled={decide.isPending} onClick={() => decide.mutate("proceed")}>
          {action.mapping.approve}
        </Button>
        <Button variant="danger" disabled={decide.isPending} onClick={() => decide.mutate("reject")}>
          {action.mapping.reject}
        </Button>
      </div>
      <div className="mt-2">
        <ErrorNote error={decide.error} />
      </div>
    </Card>
  );
}

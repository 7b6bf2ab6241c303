"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import { testCaseSchema } from "@/common/schemas/chatflow-tests";
import { caseFromExchange, chatflowTestsKey } from "@/browser/client/test-case-draft";
import type { UsedTool } from "@/common/schemas/prediction-stream";

/**
 * "Save this exchange as a test": one click turns a real answer into a test case of the chatflow,
 * its expectations prefilled (status 200, the tools called with their key inputs, the
 * conversation's other tools not called, a few answer words). The test chat and the Conversations view both show it.
 */
export function SaveAsTestButton({
  chatflowId,
  question,
  answer,
  usedTools,
  knownTools,
}: {
  chatflowId: string;
  question: string;
  answer: string;
  usedTools?: UsedTool[];
  /** Tools the conversation called in any answer: those this answer did not call are checked "not called". */
  knownTools?: string[];
}) {
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: () =>
      api(`/api/v1/chatflows/${chatflowId}/tests`, {
        method: "POST",
        schema: testCaseSchema,
        body: caseFromExchange({ question, answer, usedTools, knownTools }),
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatflowTestsKey(chatflowId) }),
  });
  if (save.isSuccess) {
    return (
      <span className="self-start text-[11px] font-medium text-emerald-700" role="status">
        Saved as test “{save.data.name}”
      </span>
    );
  }
  return (
    <span className="flex items-center gap-2 self-start">
      <button
        type="button"
        onClick={() => save.mutate()}
        disabled={save.isPending}
        className="rounded-md px-2 py-0.5 text-[11px] font-medium text-slate-600 ring-1 ring-slate-300 hover:bg-white disabled:opacity-50"
      >
        {save.isPending ? "Saving…" : "Save as test"}
      </button>
      {save.error && (
        <span role="alert" className="text-[11px] text-red-700">
          {save.error.message}
        </span>
      )}
    </span>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { chatflowTestsKey } from "@/browser/client/test-case-draft";
import { chatflowResponseSchema } from "@/common/schemas/chatflow";
import {
  startTestRunResponseSchema,
  testCaseSchema,
  testRunSchema,
  testRunSummarySchema,
  type TestCaseBody,
} from "@/common/schemas/chatflow-tests";
import { versionListResponseSchema } from "@/common/schemas/chatflow-version";
import { deletedResponseSchema } from "@/common/schemas/responses";

const base = (id: string) => `/api/v1/chatflows/${id}/tests`;
const caseListSchema = z.array(testCaseSchema);
const runListSchema = z.array(testRunSummarySchema);
export const testRunsKey = (id: string) => ["chatflow-test-runs", id] as const;

/** The chatflow's test cases. */
export function useTestCases(chatflowId: string) {
  return useQuery({
    queryKey: chatflowTestsKey(chatflowId),
    queryFn: () => api(base(chatflowId), { schema: caseListSchema }),
  });
}

/** Adds a case (no id) or replaces one (with its id). */
export function useSaveTestCase(chatflowId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: TestCaseBody }) =>
      id
        ? api(`${base(chatflowId)}/${id}`, { method: "PUT", body, schema: testCaseSchema })
        : api(base(chatflowId), { method: "POST", body, schema: testCaseSchema }),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatflowTestsKey(chatflowId) }),
  });
}

export function useDeleteTestCase(chatflowId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`${base(chatflowId)}/${id}`, { method: "DELETE", schema: deletedResponseSchema }),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatflowTestsKey(chatflowId) }),
  });
}

/** Starts a run against a version (undefined: the draft); answers its id. */
export function useStartTestRun(chatflowId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version?: number) =>
      api(`${base(chatflowId)}/run`, {
        method: "POST",
        schema: startTestRunResponseSchema,
        body: version === undefined ? {} : { version },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: testRunsKey(chatflowId) }),
  });
}

/** The newest runs (summaries). */
export function useTestRuns(chatflowId: string) {
  return useQuery({
    queryKey: testRunsKey(chatflowId),
    queryFn: () => api(`${base(chatflowId)}/runs`, { schema: runListSchema }),
  });
}

/** One run with its results, polled while it is queued or running (its progress). */
export function useTestRun(chatflowId: string, runId: string | undefined) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: ["chatflow-test-run", chatflowId, runId],
    enabled: !!runId,
    queryFn: async () => {
      const run = await api(`${base(chatflowId)}/runs/${runId}`, { schema: testRunSchema });
      if (run.status === "finished" || run.status === "failed") {
        void qc.invalidateQueries({ queryKey: testRunsKey(chatflowId) });
        // The versions list (Publish dialog, Versions panel) shows each version's last run.
        void qc.invalidateQueries({ queryKey: ["chatflow-versions", chatflowId] });
      }
      return run;
    },
    refetchInterval: (q) => (q.state.data && ["finished", "failed"].includes(q.state.data.status) ? false : 700),
  });
}

/** The chatflow's versions, newest first (the versions panel's query: one fetch for both). */
export function useVersionNumbers(chatflowId: string) {
  return useQuery({
    queryKey: ["chatflow-versions", chatflowId],
    queryFn: async () => {
      return api(`/api/v1/chatflows/${chatflowId}/versions`, { schema: versionListResponseSchema });
    },
    retry: false,
  });
}

/** The chatflow's "require passing tests to publish" setting, read from and saved to the chatflow. */
export function useRequirePassingTests(chatflowId: string) {
  const qc = useQueryClient();
  const flow = useQuery({
    queryKey: ["chatflow", chatflowId],
    queryFn: () => api(`/api/v1/chatflows/${chatflowId}`, { schema: chatflowResponseSchema }),
    staleTime: Infinity,
  });
  const save = useMutation({
    mutationFn: (requirePassingTests: boolean) =>
      api(`/api/v1/chatflows/${chatflowId}`, {
        method: "PUT",
        schema: chatflowResponseSchema,
        body: { requirePassingTests },
      }),
    // Shown at once; put back if the save fails.
    onMutate: (requirePassingTests) => {
      const previous = qc.getQueryData<Record<string, unknown>>(["chatflow", chatflowId]);
      if (previous) qc.setQueryData(["chatflow", chatflowId], { ...previous, requirePassingTests });
      return previous;
    },
    onError: (_err, _value, previous) => {
      if (previous) qc.setQueryData(["chatflow", chatflowId], previous);
    },
  });
  return { value: flow.data?.requirePassingTests ?? false, save };
}

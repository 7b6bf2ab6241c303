"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import { chatflowTestsKey } from "@/browser/client/test-case-draft";
import type { TestCase, TestCaseBody, TestRun, TestRunSummary } from "@/common/schemas/chatflow-tests";

const base = (id: string) => `/api/v1/chatflows/${id}/tests`;
export const testRunsKey = (id: string) => ["chatflow-test-runs", id] as const;

/** The chatflow's test cases. */
export function useTestCases(chatflowId: string) {
  return useQuery({ queryKey: chatflowTestsKey(chatflowId), queryFn: () => api<TestCase[]>(base(chatflowId)) });
}

/** Adds a case (no id) or replaces one (with its id). */
export function useSaveTestCase(chatflowId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: TestCaseBody }) =>
      id
        ? api<TestCase>(`${base(chatflowId)}/${id}`, { method: "PUT", body })
        : api<TestCase>(base(chatflowId), { method: "POST", body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatflowTestsKey(chatflowId) }),
  });
}

export function useDeleteTestCase(chatflowId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`${base(chatflowId)}/${id}`, { method: "DELETE" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: chatflowTestsKey(chatflowId) }),
  });
}

/** Starts a run against a version (undefined: the draft); answers its id. */
export function useStartTestRun(chatflowId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version?: number) =>
      api<{ runId: string; version: number }>(`${base(chatflowId)}/run`, {
        method: "POST",
        body: version === undefined ? {} : { version },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: testRunsKey(chatflowId) }),
  });
}

/** The newest runs (summaries). */
export function useTestRuns(chatflowId: string) {
  return useQuery({
    queryKey: testRunsKey(chatflowId),
    queryFn: () => api<TestRunSummary[]>(`${base(chatflowId)}/runs`),
  });
}

/** One run with its results, polled while it is queued or running (its progress). */
export function useTestRun(chatflowId: string, runId: string | undefined) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: ["chatflow-test-run", chatflowId, runId],
    enabled: !!runId,
    queryFn: async () => {
      const run = await api<TestRun>(`${base(chatflowId)}/runs/${runId}`);
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
      return api<{ versions: { version: number; published: boolean }[] }>(`/api/v1/chatflows/${chatflowId}/versions`);
    },
    retry: false,
  });
}

/** The chatflow's "require passing tests to publish" setting, read from and saved to the chatflow. */
export function useRequirePassingTests(chatflowId: string) {
  const qc = useQueryClient();
  const flow = useQuery({
    queryKey: ["chatflow", chatflowId],
    queryFn: () => api<{ requirePassingTests: boolean }>(`/api/v1/chatflows/${chatflowId}`),
    staleTime: Infinity,
  });
  const save = useMutation({
    mutationFn: (requirePassingTests: boolean) =>
      api<{ requirePassingTests: boolean }>(`/api/v1/chatflows/${chatflowId}`, {
        method: "PUT",
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

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import { chatflowResponseSchema, type ChatflowResponse } from "@/common/schemas/chatflow";
import {
  publishResponseSchema,
  versionDetailResponseSchema,
  versionDiffResponseSchema,
  versionListResponseSchema,
  type VersionDetail,
  type VersionDiff,
  type VersionSummary,
} from "@/common/schemas/chatflow-version";
import { chatflowKey, versionsKey } from "./use-chatflow";

export type { VersionDetail, VersionDiff, VersionSummary };

/** The chatflow's versions, newest first (refetched after a save, a publish or a restore). */
export function useVersions(id: string) {
  return useQuery({
    queryKey: versionsKey(id),
    queryFn: () => api(`/api/v1/chatflows/${id}/versions`, { schema: versionListResponseSchema }),
  });
}

/** One version with its graph and settings (versions never change: cached for good). */
export function fetchVersion(id: string, n: number) {
  return api(`/api/v1/chatflows/${id}/versions/${n}`, { schema: versionDetailResponseSchema });
}

/** What changed from version `from` to version `to`. */
export function useVersionDiff(id: string, from: number | null, to: number | null) {
  return useQuery({
    queryKey: ["chatflow-version-diff", id, from, to],
    queryFn: () =>
      api(`/api/v1/chatflows/${id}/versions/${to}/diff?against=${from}`, { schema: versionDiffResponseSchema }),
    enabled: from !== null && to !== null && from !== to,
    staleTime: Infinity,
  });
}

/** Publishes a version; the chatflow's cached row learns its new published version. */
export function usePublishVersion(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      api(`/api/v1/chatflows/${id}/publish`, {
        method: "POST",
        schema: publishResponseSchema,
        body: { version },
      }),
    onSuccess: (res) => {
      qc.setQueryData<ChatflowResponse>(chatflowKey(id), (prev) =>
        prev ? { ...prev, publishedVersion: res.publishedVersion } : prev,
      );
      qc.invalidateQueries({ queryKey: versionsKey(id) });
    },
  });
}

/** Restores a version as the new draft; answers the chatflow at its new version. */
export function useRestoreVersion(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      api(`/api/v1/chatflows/${id}/versions/${version}/restore`, {
        method: "POST",
        body: {},
        schema: chatflowResponseSchema,
      }),
    onSuccess: (saved) => {
      qc.setQueryData(chatflowKey(id), saved);
      qc.invalidateQueries({ queryKey: versionsKey(id) });
    },
  });
}

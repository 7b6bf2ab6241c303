"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import type { ChatflowResponse } from "@/common/schemas/chatflow";
import type { VersionDetail, VersionDiff, VersionSummary } from "@/common/schemas/chatflow-version";
import { chatflowKey, versionsKey } from "./use-chatflow";

export type { VersionDetail, VersionDiff, VersionSummary };
type VersionList = { version: number; publishedVersion: number | null; versions: VersionSummary[] };

/** The chatflow's versions, newest first (refetched after a save, a publish or a restore). */
export function useVersions(id: string) {
  return useQuery({
    queryKey: versionsKey(id),
    queryFn: () => api<VersionList>(`/api/v1/chatflows/${id}/versions`),
  });
}

/** One version with its graph and settings (versions never change: cached for good). */
export function fetchVersion(id: string, n: number) {
  return api<VersionDetail>(`/api/v1/chatflows/${id}/versions/${n}`);
}

/** What changed from version `from` to version `to`. */
export function useVersionDiff(id: string, from: number | null, to: number | null) {
  return useQuery({
    queryKey: ["chatflow-version-diff", id, from, to],
    queryFn: () => api<VersionDiff>(`/api/v1/chatflows/${id}/versions/${to}/diff?against=${from}`),
    enabled: from !== null && to !== null && from !== to,
    staleTime: Infinity,
  });
}

/** Publishes a version; the chatflow's cached row learns its new published version. */
export function usePublishVersion(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      api<{ version: number; publishedVersion: number }>(`/api/v1/chatflows/${id}/publish`, {
        method: "POST",
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
      api<ChatflowResponse>(`/api/v1/chatflows/${id}/versions/${version}/restore`, { method: "POST", body: {} }),
    onSuccess: (saved) => {
      qc.setQueryData(chatflowKey(id), saved);
      qc.invalidateQueries({ queryKey: versionsKey(id) });
    },
  });
}

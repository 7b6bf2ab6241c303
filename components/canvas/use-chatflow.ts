"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/browser/client/api";
import { chatflowResponseSchema, type ChatflowResponse, type updateChatflowSchema } from "@/common/schemas/chatflow";
import type { z } from "zod";

/** A chatflow as the API answers it (inferred from common/schemas/chatflow.ts, not copied). */
export type Chatflow = ChatflowResponse;
/** The fields the editor saves (a PUT body of common/schemas/chatflow.ts). */
export type ChatflowUpdate = Pick<
  z.input<typeof updateChatflowSchema>,
  | "name"
  | "isPublic"
  | "allowedOrigins"
  | "rateLimit"
  | "overrideAllowList"
  | "graph"
  | "expectedVersion"
  | "chatbotConfig"
  | "speechToText"
  | "versionMessage"
>;

export const chatflowKey = (id: string) => ["chatflow", id] as const;
/** The version list of a chatflow (use-versions.ts): a save adds one. */
export const versionsKey = (id: string) => ["chatflow-versions", id] as const;

/** The chatflow being edited. Not refetched behind the builder's back: a reload is explicit. */
export function useChatflow(id: string) {
  return useQuery({
    queryKey: chatflowKey(id),
    queryFn: () => api(`/api/v1/chatflows/${id}`, { schema: chatflowResponseSchema }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/**
 * PUT with the version the editor started from; a 409 means another tab or person saved first.
 * The cached chatflow is updated optimistically (name/settings show at once) and rolled back on error.
 */
export function useUpdateChatflow(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ChatflowUpdate) =>
      api(`/api/v1/chatflows/${id}`, { method: "PUT", body, schema: chatflowResponseSchema }),
    onMutate: async (body) => {
      await qc.cancelQueries({ queryKey: chatflowKey(id) });
      const previous = qc.getQueryData<Chatflow>(chatflowKey(id));
      if (previous) {
        const { expectedVersion: _ignored, ...fields } = body;
        qc.setQueryData<Chatflow>(chatflowKey(id), { ...previous, ...fields });
      }
      return { previous };
    },
    onError: (_err, _body, ctx) => {
      if (ctx?.previous) qc.setQueryData(chatflowKey(id), ctx.previous);
    },
    onSuccess: (saved) => {
      qc.setQueryData(chatflowKey(id), saved);
      qc.invalidateQueries({ queryKey: ["chatflows"] });
      qc.invalidateQueries({ queryKey: versionsKey(id) });
    },
  });
}

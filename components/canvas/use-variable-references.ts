"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useRef } from "react";
import { editorToGraph } from "@/browser/canvas/graph-convert";
import { api } from "@/browser/client/api";
import { type VariableReference, variableReferencesAt } from "@/common/agentflow/references";
import { variableListResponseSchema } from "@/common/schemas/variable";
import { useEditorStore } from "./editor-context";

/** The names of the server's global variables (`{{$vars.name}}`); undefined until known (or not readable). */
export function useGlobalVariableNames(enabled = true): string[] | undefined {
  const vars = useQuery({
    queryKey: ["variables"],
    queryFn: () => api("/api/v1/variables", { schema: variableListResponseSchema }),
    staleTime: 60_000,
    retry: false,
    enabled,
  });
  return useMemo(() => vars.data?.map((v) => v.name), [vars.data]);
}

/**
 * What a `{{…}}` typed in field `param` of step `nodeId` can name, read from the canvas when asked
 * (the autocomplete asks as `{{` is typed: the graph as it is then). The function stays the same
 * across renders, so the code editor keeps its extensions.
 */
export function useVariableReferences(nodeId: string, param: string): () => VariableReference[] {
  const store = useEditorStore();
  const names = useGlobalVariableNames();
  const known = useRef(names);
  known.current = names;
  return useCallback(() => {
    const s = store.getState();
    return variableReferencesAt(editorToGraph(s.nodes, s.edges), nodeId, store.catalog.get, {
      param,
      ...(known.current ? { variables: known.current } : {}),
    });
  }, [store, nodeId, param]);
}

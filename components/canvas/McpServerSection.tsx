"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/browser/client/api";
import { mcpServerConfigSchema, type McpServerConfig } from "@/common/schemas/mcp-server";
import { Button, ErrorNote } from "@/components/ui/controls";
import { CopyButton } from "@/components/ui/SnippetTabs";

/**
 * The Publish dialog's MCP part: serve the flow as an MCP tool, with its endpoint and the token
 * (shown once, right after enabling or rotating: only its hash is kept), rotate the token, disable.
 */
export function McpServerSection({ chatflowId }: { chatflowId: string }) {
  const path = `/api/v1/mcp-server/${chatflowId}`;
  const key = ["mcp-server", chatflowId];
  const client = useQueryClient();
  const config = useQuery({ queryKey: key, queryFn: () => api(path, { schema: mcpServerConfigSchema }) });
  const [token, setToken] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (what: "enable" | "rotate" | "disable") =>
      what === "enable"
        ? api(path, { method: "POST", body: {}, schema: mcpServerConfigSchema })
        : what === "rotate"
          ? api(`${path}/refresh`, { method: "POST", schema: mcpServerConfigSchema })
          : api(path, { method: "DELETE", schema: mcpServerConfigSchema }),
    onSuccess: (next: McpServerConfig) => {
      setToken(next.token ?? null);
      client.setQueryData(key, next);
    },
  });
  const c = config.data;
  const url = c && `${typeof window === "undefined" ? "" : window.location.origin}${c.endpoint}`;

  return (
    <div data-testid="mcp-server">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">MCP server</p>
      <ErrorNote error={config.error ?? change.error} />
      {c && !c.enabled && (
        <div className="mt-1 flex items-center justify-between gap-2 text-sm text-slate-600">
          <span>Off. Serve this flow as one tool to Claude Desktop, Cursor and other MCP clients.</span>
          <Button variant="secondary" disabled={change.isPending} onClick={() => change.mutate("enable")}>
            Enable MCP
          </Button>
        </div>
      )}
      {c?.enabled && (
        <div className="mt-1 space-y-2 text-sm">
          <p className="text-slate-600">
            Tool <code className="font-mono text-xs">{c.toolName}</code>, token {c.tokenHint}…
          </p>
          <div className="flex items-center gap-2">
            <code
              className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-2 py-1.5 font-mono text-xs"
              data-testid="mcp-endpoint"
            >
              {url}
            </code>
            {url && <CopyButton text={url} label="Copy URL" />}
          </div>
          {token && (
            <div className="rounded-md bg-amber-50 p-2 ring-1 ring-amber-200">
              <p className="text-xs text-amber-900">Copy the token now: it is not shown again.</p>
              <div className="mt-1 flex items-center gap-2">
                <code className="min-w-0 flex-1 break-all font-mono text-xs" data-testid="mcp-token">
                  {token}
                </code>
                <CopyButton text={token} label="Copy token" />
              </div>
            </div>
          )}
          <div className="flex gap-2">
            <Button variant="secondary" disabled={change.isPending} onClick={() => change.mutate("rotate")}>
              Rotate token
            </Button>
            <Button variant="danger" disabled={change.isPending} onClick={() => change.mutate("disable")}>
              Disable MCP
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

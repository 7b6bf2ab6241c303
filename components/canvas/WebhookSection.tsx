"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/browser/client/api";
import { type UpdateWebhook, webhookSettingsSchema, type WebhookSettings } from "@/common/schemas/triggers";
import { Button, ErrorNote } from "@/components/ui/controls";
import { CopyButton } from "@/components/ui/SnippetTabs";

/** The curl call of a webhook: signed (timestamp and HMAC of "<timestamp>.<body>") when it has a secret. */
function curlOf(url: string, signed: boolean): string {
  const body = `'{"question":"Hello from a webhook"}'`;
  if (!signed) return `curl -X POST '${url}' \\\n  -H 'content-type: application/json' \\\n  -d ${body}`;
  return [
    `body=${body}`,
    "ts=$(date +%s)",
    `sig=$(printf '%s.%s' "$ts" "$body" | openssl dgst -sha256 -hmac "$WEBHOOK_SECRET" -hex | sed 's/^.* //')`,
    `curl -X POST '${url}' \\`,
    "  -H 'content-type: application/json' \\",
    '  -H "x-switchyard-timestamp: $ts" -H "x-switchyard-signature: sha256=$sig" \\',
    '  -d "$body"',
  ].join("\n");
}

/**
 * The Publish dialog's webhook part: turn the flow's webhook on or off, make (shown once), rotate or
 * drop its signing secret, and the URL with a curl call to copy.
 */
export function WebhookSection({ chatflowId }: { chatflowId: string }) {
  const path = `/api/v1/chatflows/${chatflowId}/webhook`;
  const key = ["webhook", chatflowId];
  const client = useQueryClient();
  const settings = useQuery({ queryKey: key, queryFn: () => api(path, { schema: webhookSettingsSchema }) });
  const [secret, setSecret] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (body: UpdateWebhook) => api(path, { method: "PUT", body, schema: webhookSettingsSchema }),
    onSuccess: (next: WebhookSettings) => {
      setSecret(next.secret ?? null);
      client.setQueryData(key, next);
    },
  });
  const s = settings.data;
  const url = s && `${typeof window === "undefined" ? "" : window.location.origin}${s.path}`;

  return (
    <div data-testid="webhook">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Webhook</p>
      <ErrorNote error={settings.error ?? change.error} />
      {s && !s.enabled && (
        <div className="mt-1 flex items-center justify-between gap-2 text-sm text-slate-600">
          <span>Off. Let other tools start this flow with a POST (runs the published version).</span>
          <Button variant="secondary" disabled={change.isPending} onClick={() => change.mutate({ enabled: true })}>
            Enable webhook
          </Button>
        </div>
      )}
      {s?.enabled && url && (
        <div className="mt-1 space-y-2 text-sm">
          {!s.published && <p className="text-amber-800">Publish a version first: until then calls answer 404.</p>}
          <p className="text-slate-600">
            {s.hasSecret ? "Calls must be signed with the secret (HMAC-SHA256)." : "Anyone with the URL can call it."}{" "}
            Input: {s.inputMode === "body" ? "the whole body, as the question" : "the body's question field"}.
          </p>
          <div className="flex items-center gap-2">
            <code
              className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-2 py-1.5 font-mono text-xs"
              data-testid="webhook-url"
            >
              POST {url}
            </code>
            <CopyButton text={url} label="Copy URL" />
          </div>
          {secret && (
            <div className="rounded-md bg-amber-50 p-2 ring-1 ring-amber-200">
              <p className="text-xs text-amber-900">Copy the secret now: it is not shown again.</p>
              <div className="mt-1 flex items-center gap-2">
                <code className="min-w-0 flex-1 break-all font-mono text-xs" data-testid="webhook-secret">
                  {secret}
                </code>
                <CopyButton text={secret} label="Copy secret" />
              </div>
            </div>
          )}
          <pre
            className="overflow-x-auto rounded-md bg-slate-900 p-2 font-mono text-xs text-slate-100"
            data-testid="webhook-curl"
          >
            {curlOf(url, s.hasSecret)}
          </pre>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() => change.mutate({ rotateSecret: true })}
            >
              {s.hasSecret ? "Rotate secret" : "Require a signature"}
            </Button>
            {s.hasSecret && (
              <Button variant="ghost" disabled={change.isPending} onClick={() => change.mutate({ removeSecret: true })}>
                Remove secret
              </Button>
            )}
            <Button
              variant="ghost"
              disabled={change.isPending}
              onClick={() => change.mutate({ inputMode: s.inputMode === "body" ? "question" : "body" })}
            >
              {s.inputMode === "body" ? "Take the question field" : "Take the whole body"}
            </Button>
            <Button variant="danger" disabled={change.isPending} onClick={() => change.mutate({ enabled: false })}>
              Disable webhook
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { api } from "@/browser/client/api";
import {
  apiKeyResponseSchema,
  chatflowSummaryResponseSchema,
  createdApiKeyResponseSchema,
} from "@/common/schemas/responses";
import { Button, Card, ErrorNote, PageHeader, TextInput } from "@/components/ui/controls";
import { keyPermissionsForRole } from "@/common/access/permissions";
import { useStudioUser } from "./StudioUser";
import { useConfirm } from "@/components/ui/ConfirmDialog";

const keyListSchema = z.array(apiKeyResponseSchema);
const flowListSchema = z.array(chatflowSummaryResponseSchema);
type Flow = Pick<z.output<typeof chatflowSummaryResponseSchema>, "id" | "name">;

const PERMISSIONS = [
  { id: "predict", label: "Prediction" },
  { id: "upsert", label: "Vector upsert" },
  { id: "chatflows", label: "Manage chatflows" },
  { id: "messages", label: "Read messages" },
  { id: "domains", label: "Domains" },
];

export function ApiKeyManager() {
  const confirm = useConfirm();
  const { user, may } = useStudioUser();
  const showOwner = may("user.manage");
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ["apikeys"], queryFn: () => api("/api/v1/apikey", { schema: keyListSchema }) });
  const flows = useQuery({
    queryKey: ["chatflows"],
    queryFn: () => api("/api/v1/chatflows", { schema: flowListSchema }),
  });
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const create = useMutation({
    mutationFn: (body: object) => api("/api/v1/apikey", { method: "POST", body, schema: createdApiKeyResponseSchema }),
    onSuccess: (k) => {
      setShown({ name: k.name, key: k.key });
      qc.invalidateQueries({ queryKey: ["apikeys"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/api/v1/apikey/${id}`, { method: "DELETE", schema: apiKeyResponseSchema }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["apikeys"] }),
  });
  const flowName = (id: string) => flows.data?.find((f) => f.id === id)?.name ?? id.slice(0, 8);

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle="Keys let other apps call prediction, upsert and management APIs. Only a hash is stored."
      />
      {shown && (
        <div role="status" className="mb-6 rounded-xl border border-emerald-200 bg-emerald-50 p-4 shadow-sm">
          <p className="text-sm font-medium text-emerald-900">
            Key “{shown.name}” created. Copy it now: it will not be shown again.
          </p>
          <div className="mt-2 flex items-center gap-2">
            <code
              data-testid="new-api-key"
              className="flex-1 break-all rounded bg-white px-3 py-2 font-mono text-sm ring-1 ring-emerald-200"
            >
              {shown.key}
            </code>
            <Button variant="secondary" onClick={() => navigator.clipboard?.writeText(shown.key)}>
              Copy
            </Button>
            <Button variant="ghost" onClick={() => setShown(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      <CreateKeyForm
        flows={flows.data ?? []}
        pending={create.isPending}
        onCreate={(body) => create.mutate(body)}
        offered={user ? keyPermissionsForRole(user.role) : []}
      />
      <ErrorNote error={create.error ?? keys.error ?? revoke.error} />
      <Card className="mt-6 overflow-hidden">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs uppercase text-slate-500">
            <tr>
              <th className="px-4 py-2">Name</th>
              <th className="px-4 py-2">Key</th>
              <th className="px-4 py-2">Permissions</th>
              <th className="px-4 py-2">Chatflows</th>
              <th className="px-4 py-2">Last used</th>
              {showOwner && <th className="px-4 py-2">Owner</th>}
              <th className="px-4 py-2" />
            </tr>
          </thead>
          <tbody>
            {keys.data?.map((k) => (
              <tr key={k.id} className="border-t border-slate-100" data-testid={`key-row-${k.name}`}>
                <td className="px-4 py-2 font-medium">{k.name}</td>
                <td className="px-4 py-2 font-mono text-xs">{k.prefix}_…</td>
                <td className="px-4 py-2 text-xs">{k.permissions.join(", ")}</td>
                <td className="px-4 py-2 text-xs">{k.allChatflows ? "All" : k.chatflowIds.map(flowName).join(", ")}</td>
                <td className="px-4 py-2 text-xs text-slate-500">
                  {k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : "never"}
                </td>
                {showOwner && <td className="px-4 py-2 text-xs">{k.owner?.name ?? "–"}</td>}
                <td className="px-4 py-2 text-right">
                  {k.status === "revoked" ? (
                    <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-500">revoked</span>
                  ) : (
                    <Button
                      variant="danger"
                      aria-label={`Revoke ${k.name}`}
                      onClick={async () => {
                        const yes = await confirm({
                          title: `Revoke “${k.name}”?`,
                          message: "Apps using this key stop working at once.",
                          confirmLabel: "Revoke key",
                        });
                        if (yes) revoke.mutate(k.id);
                      }}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
            {keys.data?.length === 0 && (
              <tr>
                <td colSpan={showOwner ? 7 : 6} className="px-4 py-6 text-center text-slate-500">
                  No API keys yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </Card>
    </>
  );
}

/** `offered`: the permissions the signed-in user's role may give a key (a builder: no `messages`). */
function CreateKeyForm({
  flows,
  pending,
  onCreate,
  offered,
}: {
  flows: Flow[];
  pending: boolean;
  onCreate: (b: object) => void;
  offered: string[];
}) {
  const [name, setName] = useState("");
  const [perms, setPerms] = useState<string[]>(["predict", "upsert"]);
  const [scoped, setScoped] = useState<string[]>([]);
  const toggle = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);
  return (
    <Card className="p-4">
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          onCreate({ name, permissions: perms, chatflowIds: scoped });
          setName("");
        }}
      >
        <TextInput
          label="Key name"
          placeholder="e.g. website backend"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <fieldset className="text-sm">
          <legend className="mb-1 font-medium text-slate-700">Permissions</legend>
          <div className="flex flex-wrap gap-4">
            {PERMISSIONS.filter((p) => offered.includes(p.id)).map((p) => (
              <label key={p.id} className="flex items-center gap-1.5">
                <input type="checkbox" checked={perms.includes(p.id)} onChange={() => setPerms(toggle(perms, p.id))} />{" "}
                {p.label}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="text-sm">
          <legend className="mb-1 font-medium text-slate-700">Chatflows (none ticked = all)</legend>
          <div className="flex flex-wrap gap-4">
            {flows.map((f) => (
              <label key={f.id} className="flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={scoped.includes(f.id)}
                  onChange={() => setScoped(toggle(scoped, f.id))}
                />{" "}
                {f.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <Button type="submit" disabled={pending || !name.trim() || perms.length === 0}>
            Create key
          </Button>
        </div>
      </form>
    </Card>
  );
}

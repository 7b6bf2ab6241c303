"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { Button, Card, ErrorNote, PageHeader, TextInput } from "@/components/ui/controls";
import { api } from "@/browser/client/api";
import {
  credentialResponseSchema,
  credentialTestResponseSchema,
  deletedResponseSchema,
} from "@/common/schemas/responses";
import { useStudioUser } from "./StudioUser";
import {
  PROVIDER_KIND_IDS,
  PROVIDER_KINDS,
  type ProviderKind,
  type ProviderKindId,
} from "@/common/providers/catalogue";
import { useConfirm } from "@/components/ui/ConfirmDialog";

const credentialListSchema = z.array(credentialResponseSchema);
type Credential = z.output<typeof credentialResponseSchema>;
type Kind = ProviderKindId | "httpHeaders";

const KINDS: { id: Kind; label: string; hint: string }[] = [
  ...PROVIDER_KIND_IDS.map((id) => ({ id, label: PROVIDER_KINDS[id].label, hint: PROVIDER_KINDS[id].hint })),
  {
    id: "httpHeaders",
    label: "API headers",
    hint: "Headers sent by the OpenAPI chain with every request, e.g. an API key.",
  },
];
/** Where a provider key goes when its base URL is empty (none: the base URL is required). */
const defaultHost = (kind: ProviderKindId): string | undefined => {
  const provider: ProviderKind = PROVIDER_KINDS[kind];
  return provider.defaultUrl ? new URL(provider.defaultUrl).host : undefined;
};
/** The fields a provider's credential holds beside its key and base URL. */
const fieldsOf = (kind: Kind): NonNullable<ProviderKind["fields"]> =>
  kind === "httpHeaders" ? [] : ((PROVIDER_KINDS[kind] as ProviderKind).fields ?? []);
const kindLabel = (t: string) => KINDS.find((k) => k.id === t)?.label ?? t;

/** Provider keys and API headers: added here, used by nodes by id; values are never sent back. */
export function CredentialManager() {
  const confirm = useConfirm();
  const qc = useQueryClient();
  const creds = useQuery({
    queryKey: ["credentials"],
    queryFn: () => api("/api/v1/credentials", { schema: credentialListSchema }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ["credentials"] });
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api(`/api/v1/credentials/${id}`, { method: "PUT", body: { name }, schema: credentialResponseSchema }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/v1/credentials/${id}`, { method: "DELETE", schema: deletedResponseSchema }),
    onSuccess: refresh,
  });
  const share = useMutation({
    mutationFn: ({ id, shared }: { id: string; shared: boolean }) =>
      api(`/api/v1/credentials/${id}`, {
        method: "PUT",
        body: { sharedWithBuilders: shared },
        schema: credentialResponseSchema,
      }),
    onSuccess: refresh,
  });
  return (
    <>
      <PageHeader
        title="Credentials"
        subtitle="Keys for model providers and external APIs. Encrypted at rest; values are never shown again."
      />
      <AddCredential onAdded={refresh} />
      <ErrorNote error={creds.error ?? rename.error ?? remove.error ?? share.error} />
      {creds.isLoading && <p className="text-sm text-slate-500">Loading credentials…</p>}
      {creds.data?.length === 0 && (
        <p className="text-sm text-slate-500">
          No credentials yet. Nodes without one use the server’s environment settings.
        </p>
      )}
      <ul className="grid gap-3" aria-label="Credentials">
        {creds.data?.map((c) => (
          <CredentialRow
            key={c.id}
            c={c}
            onRename={(name) => rename.mutate({ id: c.id, name })}
            onShare={(shared) => share.mutate({ id: c.id, shared })}
            onDelete={async () => {
              const yes = await confirm({
                title: `Delete “${c.name}”?`,
                message: "Nodes using this credential stop working.",
                confirmLabel: "Delete credential",
              });
              if (yes) remove.mutate(c.id);
            }}
          />
        ))}
      </ul>
    </>
  );
}

function AddCredential({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<Kind>("openai");
  const [apiKey, setApiKey] = useState("");
  const [baseURL, setBaseURL] = useState("");
  const [extra, setExtra] = useState<Record<string, string>>({});
  const [headers, setHeaders] = useState([{ name: "", value: "" }]);
  const [hosts, setHosts] = useState("");
  const create = useMutation({
    mutationFn: () => {
      const data =
        kind === "httpHeaders"
          ? {
              allowedHosts: hosts
                .split(/[\s,]+/)
                .map((h) => h.trim())
                .filter(Boolean),
              headers: Object.fromEntries(headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value])),
            }
          : {
              apiKey,
              ...(baseURL.trim() ? { baseURL: baseURL.trim() } : {}),
              ...Object.fromEntries(
                Object.entries(extra)
                  .map(([k, v]) => [k, v.trim()])
                  .filter(([k, v]) => v && fieldsOf(kind).some((f) => f.name === k)),
              ),
            };
      return api("/api/v1/credentials", {
        method: "POST",
        body: { name: name.trim(), type: kind, data },
        schema: credentialResponseSchema,
      });
    },
    onSuccess: () => {
      setName("");
      setApiKey("");
      setBaseURL("");
      setExtra({});
      setHeaders([{ name: "", value: "" }]);
      setHosts("");
      onAdded();
    },
  });
  return (
    <Card className="mb-6 p-4">
      <form
        className="grid gap-3"
        aria-label="Add credential"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <TextInput
            label="Name"
            placeholder="e.g. OpenAI production"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-slate-700">Type</span>
            <select
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
              value={kind}
              onChange={(e) => setKind(e.target.value as Kind)}
            >
              {KINDS.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="text-xs text-slate-500">{KINDS.find((k) => k.id === kind)!.hint}</p>
        {kind !== "httpHeaders" ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextInput
              label={(PROVIDER_KINDS[kind] as ProviderKind).keyLabel ?? "API key"}
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              required
            />
            <TextInput
              label={defaultHost(kind) ? "Base URL (optional)" : "Endpoint"}
              placeholder={PROVIDER_KINDS[kind].placeholder}
              value={baseURL}
              onChange={(e) => setBaseURL(e.target.value)}
              required={!defaultHost(kind)}
            />
            {fieldsOf(kind).map((f) => (
              <TextInput
                key={f.name}
                label={f.optional ? `${f.label} (optional)` : f.label}
                placeholder={f.placeholder}
                type={f.secret ? "password" : undefined}
                autoComplete={f.secret ? "off" : undefined}
                value={extra[f.name] ?? ""}
                onChange={(e) => setExtra((x) => ({ ...x, [f.name]: e.target.value }))}
                required={!f.optional}
              />
            ))}
            <p className="text-xs text-slate-500 sm:col-span-2">
              {defaultHost(kind)
                ? `The key is only ever sent to this base URL's host (${defaultHost(kind)} when empty).`
                : "The key is only ever sent to this endpoint's host."}
            </p>
          </div>
        ) : (
          <div className="grid gap-2">
            <TextInput
              label="Allowed hosts"
              placeholder="api.example.com, 10.0.0.5:8080"
              value={hosts}
              onChange={(e) => setHosts(e.target.value)}
              required
            />
            <p className="text-xs text-slate-500">
              The headers are only ever sent to these hosts (host or host:port, comma-separated).
            </p>
            {headers.map((h, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are only appended (or all reset), never reordered; a key from the text would remount the inputs while typing
              <div key={i} className="grid grid-cols-2 gap-3">
                <TextInput
                  label={`Header ${i + 1} name`}
                  placeholder="X-Api-Key"
                  value={h.name}
                  onChange={(e) => setHeaders((hs) => hs.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
                />
                <TextInput
                  label={`Header ${i + 1} value`}
                  type="password"
                  autoComplete="off"
                  value={h.value}
                  onChange={(e) =>
                    setHeaders((hs) => hs.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
                  }
                />
              </div>
            ))}
            <Button
              type="button"
              variant="ghost"
              className="justify-self-start"
              onClick={() => setHeaders((hs) => [...hs, { name: "", value: "" }])}
            >
              + Add header
            </Button>
          </div>
        )}
        <ErrorNote error={create.error} />
        <div>
          <Button type="submit" disabled={!name.trim() || create.isPending}>
            Add credential
          </Button>
        </div>
      </form>
    </Card>
  );
}

type RowProps = {
  c: Credential;
  onRename: (n: string) => void;
  onDelete: () => void;
  onShare: (shared: boolean) => void;
};

function CredentialRow({ c, onRename, onDelete, onShare }: RowProps) {
  const { user, may } = useStudioUser();
  // Admins manage every credential; a builder their own (one an admin shared is usable, not editable).
  const editable = may("credential.transfer") || (!!user && c.ownerId === user.id);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(c.name);
  const test = useMutation({
    mutationFn: () => api(`/api/v1/credentials/${c.id}/test`, { method: "POST", schema: credentialTestResponseSchema }),
  });
  return (
    <li data-testid={`credential-${c.name}`}>
      <Card className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <div className="min-w-0 flex-1">
          {editing ? (
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (draft.trim()) onRename(draft.trim());
                setEditing(false);
              }}
            >
              <input
                aria-label="Credential name"
                className="flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                autoFocus
              />
              <Button type="submit">Save</Button>
              <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </form>
          ) : (
            <>
              <p className="font-medium">{c.name}</p>
              {test.data && (
                <p
                  role="status"
                  className={`mt-1 text-xs ${test.data.ok ? "text-emerald-700" : "text-red-700"}`}
                  data-testid={`credential-test-${c.name}`}
                >
                  {test.data.ok ? "✓ " : "✗ "}
                  {test.data.message}
                </p>
              )}
              {test.error && <ErrorNote error={test.error} />}
              <p className="text-xs text-slate-500">
                {kindLabel(c.type)} · added {new Date(c.createdAt).toLocaleDateString()} · value hidden
                {may("credential.transfer") && ` · owner: ${c.owner?.name ?? "nobody"}`}
                {!editable && c.sharedWithBuilders && " · shared by an admin (you can use it on nodes)"}
              </p>
            </>
          )}
        </div>
        {!editing && may("credential.share") && (
          <label className="flex items-center gap-1.5 text-sm text-slate-600">
            <input
              type="checkbox"
              checked={c.sharedWithBuilders}
              onChange={(e) => onShare(e.target.checked)}
              aria-label={`Share ${c.name} with all builders`}
            />
            Share with all builders
          </label>
        )}
        {!editing && editable && (
          <div className="flex gap-2">
            <Button
              variant="secondary"
              aria-label={`Test ${c.name}`}
              disabled={test.isPending}
              onClick={() => test.mutate()}
            >
              {test.isPending ? "Testing…" : "Test"}
            </Button>
            <Button
              variant="secondary"
              aria-label={`Rename ${c.name}`}
              onClick={() => {
                setDraft(c.name);
                setEditing(true);
              }}
            >
              Rename
            </Button>
            <Button variant="danger" aria-label={`Delete ${c.name}`} onClick={onDelete}>
              Delete
            </Button>
          </div>
        )}
      </Card>
    </li>
  );
}

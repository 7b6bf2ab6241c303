"use client";

import { useState } from "react";
import type { z } from "zod";
import { ApiError, api } from "@/browser/client/api";
import { importedChatflowResponseSchema, importUnmappedResponseSchema } from "@/common/schemas/responses";
import { Button, ErrorNote, TextInput } from "@/components/ui/controls";
import { ModalDialog } from "@/components/ui/ModalDialog";

type Imported = z.output<typeof importedChatflowResponseSchema>;
/** What an `import_unmapped` refusal lists (nothing was saved). */
const refusalSchema = importUnmappedResponseSchema.shape.error.shape.details;
type Refusal = z.output<typeof refusalSchema>;

export function isRefusal(e: unknown): e is ApiError & { details: Refusal } {
  return e instanceof ApiError && e.code === "import_unmapped" && refusalSchema.safeParse(e.details).success;
}

/**
 * "Import from Flowise": a Flowise export (the JSON the Flowise UI downloads) or an API record
 * (`flowData`), picked as a file or pasted. Refusals list every node and input that cannot be
 * imported (nothing is saved); an import lists what the builder still has to do (credentials…).
 */
export function FlowiseImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const [text, setText] = useState("");
  const [name, setName] = useState("");
  const [fileName, setFileName] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [imported, setImported] = useState<Imported | null>(null);

  const submit = async () => {
    setError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setError(new Error("This is not JSON. Pick or paste the file Flowise exported (Export Chatflow)."));
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      setError(new Error("This JSON is not a Flowise chatflow (an object with nodes and edges, or flowData)."));
      return;
    }
    const body = { ...(parsed as Record<string, unknown>), ...(name.trim() ? { name: name.trim() } : {}) };
    setPending(true);
    try {
      const result = await api("/api/v1/chatflows/import", {
        method: "POST",
        body,
        schema: importedChatflowResponseSchema,
      });
      setImported(result);
      onImported();
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };

  return (
    <ModalDialog
      titleId="flowise-import-title"
      title="Import from Flowise"
      subtitle="A chatflow exported from Flowise, or a record of Flowise's API (with flowData). Credentials stay in Flowise: connect ours after the import."
      widthClass="max-w-2xl"
      onClose={onClose}
    >
      <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-5">
        {imported ? (
          <ImportedNote imported={imported} />
        ) : (
          <>
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium text-slate-700">Flowise file</span>
              <input
                type="file"
                accept=".json,application/json"
                aria-label="Flowise file"
                className="text-sm"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  if (!file) return;
                  setFileName(file.name);
                  setText(await file.text());
                  if (!name) setName(file.name.replace(/( Chatflow)?\.json$/i, ""));
                }}
              />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium text-slate-700">
                {fileName ? `Content of ${fileName}` : "Or paste the JSON"}
              </span>
              <textarea
                aria-label="Flowise JSON"
                className="h-40 rounded-md border border-slate-300 px-3 py-2 font-mono text-xs"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder='{"nodes": [...], "edges": [...]}'
              />
            </label>
            <TextInput
              label="Name (optional)"
              placeholder="The record's name, or “Imported Flowise chatflow”"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            {isRefusal(error) ? <RefusalList refusal={error.details} /> : <ErrorNote error={error} />}
          </>
        )}
      </div>
      <footer className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">
        {imported ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <a
              href={`/chatflows/${imported.id}`}
              className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
            >
              Open “{imported.name}”
            </a>
          </>
        ) : (
          <>
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={submit} disabled={!text.trim() || pending}>
              {pending ? "Importing…" : "Import"}
            </Button>
          </>
        )}
      </footer>
    </ModalDialog>
  );
}

export function RefusalList({ refusal }: { refusal: Refusal }) {
  return (
    <section role="alert" aria-label="Cannot be imported" className="rounded-md border border-red-200 bg-red-50 p-3">
      <p className="text-sm font-medium text-red-800">
        This chatflow cannot be imported as it is; nothing was saved. Rebuild or remove these parts in Flowise, or
        rebuild them here with our nodes:
      </p>
      {refusal.unmappedNodes.length > 0 && (
        <ul className="mt-2 space-y-1 text-sm text-red-800" data-testid="unmapped-nodes">
          {refusal.unmappedNodes.map((n) => (
            <li key={n.nodeId}>
              <strong>{n.label}</strong> <code className="text-xs">({n.flowiseType})</code>: {n.reason}
            </li>
          ))}
        </ul>
      )}
      {refusal.droppedInputs.length > 0 && (
        <ul className="mt-2 space-y-1 text-sm text-red-800" data-testid="dropped-inputs">
          {refusal.droppedInputs.map((d) => (
            <li key={`${d.nodeId}-${d.input}`}>
              <strong>{d.label}</strong> <code className="text-xs">({d.nodeId})</code>, input{" "}
              <code className="text-xs">{d.input}</code>: {d.reason}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ImportedNote({ imported }: { imported: Imported }) {
  return (
    <section aria-label="Imported" className="space-y-2 text-sm">
      <p className="font-medium text-slate-800">Imported as “{imported.name}”.</p>
      {imported.warnings.length > 0 ? (
        <>
          <p className="text-slate-600">Before it runs as in Flowise:</p>
          <ul className="space-y-1" data-testid="import-warnings">
            {imported.warnings.map((w) => (
              <li key={`${w.nodeId}-${w.kind}-${w.input ?? ""}`} className="text-slate-700">
                <strong>{w.label}</strong> <code className="text-xs">({w.nodeId})</code>: {w.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="text-slate-600">Everything was carried over.</p>
      )}
    </section>
  );
}

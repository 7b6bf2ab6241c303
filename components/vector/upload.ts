/** Browser upload to the upsert API with progress (fetch cannot report upload progress; XHR can). */
import type { z } from "zod";
import { readAnswer } from "@/browser/client/api";
import { upsertResponseSchema } from "@/common/schemas/responses";

export type UpsertSummary = z.output<typeof upsertResponseSchema>;

/** POSTs files to one store node; `onProgress` receives 0..1 while the body is sent. */
export function uploadToStore(
  chatflowId: string,
  nodeId: string,
  files: File[],
  onProgress: (fraction: number) => void,
): Promise<UpsertSummary> {
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  form.append("stopNodeId", nodeId);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/vector/upsert/${encodeURIComponent(chatflowId)}?version=draft`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new Error("The upload failed: the server could not be reached."));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Reported below.
      }
      const call = { call: "POST /api/v1/vector/upsert", status: xhr.status };
      try {
        if (xhr.status >= 200 && xhr.status < 300) resolve(readAnswer(upsertResponseSchema, body, call));
        else reject(new Error(errorMessageOf(body) ?? `The upload failed (HTTP ${xhr.status}).`));
      } catch (e) {
        reject(e);
      }
    };
    xhr.send(form);
  });
}

/** The message of an error answer (`{ error: { message } }`), if the body is one. */
function errorMessageOf(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === "string" ? message : undefined;
}

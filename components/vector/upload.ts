/** Browser upload to the upsert API with progress (fetch cannot report upload progress; XHR can). */

export interface UpsertSummary {
  numAdded: number;
  numUpdated: number;
  numSkipped: number;
  numDeleted: number;
}

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
      let body: { error?: { message?: string } } & Partial<UpsertSummary> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Reported below.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as UpsertSummary);
      else reject(new Error(body.error?.message ?? `The upload failed (HTTP ${xhr.status}).`));
    };
    xhr.send(form);
  });
}

import type { Upload } from "./types";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** Reads a Blob as a base64 data URL. */
export function toDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** Checks a picked image against the server's limits; returns a reason to refuse, or null. */
export function imageProblem(file: File, maxBytes: number): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return `${file.name}: only PNG, JPEG, GIF or WebP images can be sent.`;
  if (file.size > maxBytes) return `${file.name} is larger than ${Math.floor(maxBytes / (1024 * 1024)) || 1} MB.`;
  return null;
}

/** An image upload for the prediction endpoint. */
export async function imageUpload(file: File): Promise<Upload> {
  return { type: "file", data: await toDataUrl(file), name: file.name, mime: file.type };
}

/** Whether this browser can record audio here (a secure context with MediaRecorder). */
export function canRecord(): boolean {
  return typeof MediaRecorder !== "undefined" && !!navigator.mediaDevices?.getUserMedia && window.isSecureContext;
}

const AUDIO_TYPES = ["audio/webm", "audio/ogg", "audio/mp4"];

/**
 * Records from the microphone until `stop()`; resolves with an audio upload. The stream's tracks
 * are released when it stops, so the browser's recording indicator goes away.
 */
export async function startRecording(): Promise<{ stop: () => Promise<Upload>; cancel: () => void }> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const mimeType = AUDIO_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
  const release = () => {
    for (const t of stream.getTracks()) t.stop();
  };
  recorder.start();
  return {
    async stop() {
      recorder.stop();
      await stopped;
      release();
      const type = (recorder.mimeType || mimeType || "audio/webm").split(";")[0];
      const blob = new Blob(chunks, { type });
      return {
        type: "audio",
        data: await toDataUrl(blob),
        name: `voice.${type.split("/")[1] === "mp4" ? "m4a" : type.split("/")[1]}`,
        mime: type,
      };
    },
    cancel() {
      if (recorder.state !== "inactive") recorder.stop();
      release();
    },
  };
}

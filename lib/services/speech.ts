import { z } from "zod";
import { AppError } from "../errors";
import { getEnv } from "../env";
import type { CheckedUpload } from "../security/uploads";
import { speechToTextSchema } from "../schemas/chatflow";
import { resolveCredential } from "./credentials";

export type SpeechSettings = z.infer<typeof speechToTextSchema>;

/** The chatflow's speech-to-text settings, or null when it is off. */
export function speechSettings(raw: unknown): SpeechSettings | null {
  const parsed = speechToTextSchema.safeParse(raw);
  return parsed.success && parsed.data.enabled ? parsed.data : null;
}

/**
 * Transcribes an audio upload through an OpenAI-compatible `/audio/transcriptions` endpoint
 * (OpenAI, a local whisper server, …) chosen in the chatflow's settings or by OPENAI_BASE_URL.
 */
export async function transcribe(audio: CheckedUpload, settings: SpeechSettings, signal?: AbortSignal): Promise<string> {
  const env = getEnv();
  const cred = settings.credentialId ? await resolveCredential(settings.credentialId) : {};
  const baseUrl = (settings.baseUrl ?? cred.baseURL ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1").replace(/\/$/, "");
  const apiKey = cred.apiKey ?? env.OPENAI_API_KEY;
  if (!apiKey) throw new AppError("not_configured", "Speech-to-text has no API key: pick a credential in the chatflow's speech settings or set OPENAI_API_KEY.");
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(audio.bytes)], { type: audio.mime }), audio.name);
  form.append("model", settings.model ?? "whisper-1");
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/audio/transcriptions`, {
      method: "POST", body: form, headers: { authorization: `Bearer ${apiKey}` },
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(60_000)]) : AbortSignal.timeout(60_000),
    });
  } catch (e) {
    throw new AppError("upstream_unavailable", `Speech-to-text at ${baseUrl} could not be reached.`, { cause: e });
  }
  if (!res.ok) {
    throw new AppError(res.status === 503 ? "upstream_unavailable" : "upstream_error", `Speech-to-text answered HTTP ${res.status}.`);
  }
  const text = String(((await res.json().catch(() => ({}))) as { text?: unknown }).text ?? "").trim();
  if (!text) throw new AppError("unprocessable", "Speech-to-text returned no words for this recording.");
  return text;
}

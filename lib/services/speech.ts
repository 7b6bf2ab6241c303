import type { z } from "zod";
import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import type { CheckedUpload } from "../security/uploads";
import { speechToTextSchema } from "@/common/schemas/chatflow";
import {
  assertCredentialHost,
  credentialText,
  PROVIDER_DEFAULT_URL,
  serverKeyHost,
} from "../security/credential-hosts";
import { createModelFetch } from "../security/outbound-policy";
import { resolveCredentialForOwner } from "./credentials";

export type SpeechSettings = z.infer<typeof speechToTextSchema>;

/** The chatflow's speech-to-text settings, or null when it is off. */
export function speechSettings(raw: unknown): SpeechSettings | null {
  const parsed = speechToTextSchema.safeParse(raw);
  return parsed.success && parsed.data.enabled ? parsed.data : null;
}

/**
 * Where transcription goes and with which key. A credential's key goes only to its own host; the
 * server's OPENAI_API_KEY only to OPENAI_BASE_URL's host (api.openai.com when unset): a base URL
 * elsewhere (a local whisper server) is called without a key.
 */
async function speechTarget(
  settings: SpeechSettings,
  ownerId: string | null,
): Promise<{ baseUrl: string; apiKey?: string; allowedHosts?: string[] }> {
  if (settings.credentialId) {
    // As for the flow's nodes: only a credential the chatflow's owner may use (own or shared).
    const cred = await resolveCredentialForOwner(settings.credentialId, ownerId);
    const apiKey = credentialText(cred, "apiKey");
    if (!apiKey) throw new AppError("not_configured", `Speech-to-text: credential "${cred.name}" has no API key.`);
    const baseUrl = settings.baseUrl ?? (credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.openai);
    return { baseUrl, apiKey, allowedHosts: assertCredentialHost(cred, baseUrl, "Speech-to-text") };
  }
  const env = getEnv();
  const baseUrl = settings.baseUrl ?? env.OPENAI_BASE_URL ?? PROVIDER_DEFAULT_URL.openai;
  const serverHost = serverKeyHost(env.OPENAI_BASE_URL);
  if (new URL(baseUrl).host !== serverHost) return { baseUrl };
  if (!env.OPENAI_API_KEY)
    throw new AppError(
      "not_configured",
      "Speech-to-text has no API key: pick a credential in the chatflow's speech settings or set OPENAI_API_KEY.",
    );
  return { baseUrl, apiKey: env.OPENAI_API_KEY, allowedHosts: [serverHost] };
}

/**
 * Transcribes an audio upload through an OpenAI-compatible `/audio/transcriptions` endpoint
 * (OpenAI, a local whisper server, …) chosen in the chatflow's settings or by OPENAI_BASE_URL,
 * through the guarded model fetch (operator's private-address policy, MODEL_TIMEOUT_MS).
 */
export async function transcribe(
  audio: CheckedUpload,
  settings: SpeechSettings,
  ownerId: string | null,
  signal?: AbortSignal,
): Promise<string> {
  const target = await speechTarget(settings, ownerId);
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(audio.bytes)], { type: audio.mime }), audio.name);
  form.append("model", settings.model ?? "whisper-1");
  const host = new URL(target.baseUrl).host;
  const modelFetch = createModelFetch({ requester: "Speech-to-text", allowedHosts: target.allowedHosts });
  const res = await modelFetch(`${target.baseUrl.replace(/\/$/, "")}/audio/transcriptions`, {
    method: "POST",
    body: form,
    headers: target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {},
    signal,
  });
  if (!res.ok) {
    throw new AppError("upstream_error", `Speech-to-text at ${host} answered HTTP ${res.status}.`);
  }
  const text = String(((await res.json().catch(() => ({}))) as { text?: unknown }).text ?? "").trim();
  if (!text) throw new AppError("unprocessable", "Speech-to-text returned no words for this recording.");
  return text;
}

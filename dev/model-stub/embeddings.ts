/**
 * Deterministic embeddings for the stub: a hashed bag of words (plus a lighter hashed bag of
 * character trigrams), L2-normalised. Texts sharing words land near each other; no model needed.
 */

export const DEFAULT_EMBEDDING_DIMENSIONS = 64;

function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w));
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
  vector[hash % vector.length] += sign * weight;
}

/** Embed one text into a unit vector of `dimensions` floats (same text, same vector). */
export function embedText(text: string, dimensions = DEFAULT_EMBEDDING_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of words(text)) {
    addFeature(vector, `w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) addFeature(vector, `t:${padded.slice(i, i + 3)}`, 0.25);
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[0] = 1; // Empty text still gets a valid unit vector.
    return vector;
  }
  for (let i = 0; i < dimensions; i += 1) vector[i] /= norm;
  return vector;
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += a[i] * b[i];
  return dot;
}

/** The inputs of an embeddings request as texts (token-id arrays become space-joined ids). */
export function embeddingInputs(input: unknown): string[] {
  const one = (x: unknown): string => (Array.isArray(x) ? x.join(" ") : String(x ?? ""));
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.length > 0 && typeof input[0] === "number") return [one(input)];
  if (Array.isArray(input)) return input.map(one);
  return [];
}

/** The `/v1/embeddings` response body: floats, or base64 little-endian float32 when asked. */
export function embeddingsResponse(body: Record<string, unknown>, defaultDimensions: number) {
  const texts = embeddingInputs(body.input);
  const dimensions = typeof body.dimensions === "number" && body.dimensions > 0 ? body.dimensions : defaultDimensions;
  const base64 = body.encoding_format === "base64";
  const data = texts.map((text, index) => {
    const vector = embedText(text, dimensions);
    const embedding = base64
      ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64")
      : Array.from(vector);
    return { object: "embedding", index, embedding };
  });
  const tokens = texts.reduce((n, t) => n + words(t).length, 0);
  return {
    object: "list",
    data,
    model: typeof body.model === "string" ? body.model : "stub-embedding",
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/**
 * Amazon Bedrock Runtime's Converse API for the model stub, written from AWS's API reference:
 * `POST /model/{modelId}/converse` answers a JSON ConverseResponse, `/model/{modelId}/converse-stream`
 * an `application/vnd.amazon.eventstream` body (binary frames: prelude, headers, JSON payload,
 * CRC32s) of messageStart, contentBlockStart/Delta/Stop, messageStop and metadata events. Requests
 * must be signed with AWS Signature Version 4 for the stub's key pair (the signature is checked, as
 * AWS does); errors carry `x-amzn-ErrorType` and a `{"message"}` body.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { crc32 } from "node:zlib";
import { splitLeading } from "./anthropic";
import type { BrainReply, ChatMessage, ToolDefinition } from "./brain";
import { textOf } from "./brain";
import type { Reply } from "./reply";

type ContentReply = Extract<BrainReply, { content: string }>;
type ToolCallReply = Extract<BrainReply, { toolCalls: unknown }>;

/** The key pair the stub accepts (AWS's access key id and secret). */
export interface AwsKeyPair {
  accessKeyId: string;
  secretAccessKey: string;
}

interface Block {
  text?: string;
  image?: unknown;
  toolUse?: { toolUseId?: string; name?: string; input?: unknown };
  toolResult?: { toolUseId?: string; content?: { text?: string; json?: unknown }[]; status?: string };
}

/** `/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream` → the model id and whether it streams. */
export function bedrockPath(rawPath: string): { model: string; stream: boolean } | undefined {
  const m = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(rawPath);
  return m ? { model: decodeURIComponent(m[1]), stream: m[2] === "converse-stream" } : undefined;
}

const ERROR_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** An error as Bedrock answers it: the type in `x-amzn-ErrorType`, `{"message"}` as the body. */
export function bedrockError(status: number, message: string, type = ERROR_TYPES[status] ?? "InternalServerException") {
  return { status, json: { message }, headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/` } };
}

const hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks AWS Signature Version 4 on a request (header form): the access key is the stub's, the scope
 * is `<date>/<region>/bedrock/aws4_request`, and the signature is the one the secret gives for the
 * canonical request (non-S3 services encode the already-encoded path segments once more). Returns
 * the reason it fails, or undefined, and the region signed for.
 */
export function checkSigV4(
  req: http.IncomingMessage,
  body: Buffer,
  keys: AwsKeyPair,
): { error?: { status: number; type: string; message: string }; region?: string } {
  const auth = req.headers.authorization ?? "";
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  const denied = (type: string, message: string) => ({ error: { status: 403, type, message } });
  if (!m) return denied("MissingAuthenticationTokenException", "Missing Authentication Token");
  const [, keyId, date, region, service, signedHeaders, signature] = m;
  if (keyId !== keys.accessKeyId)
    return denied("UnrecognizedClientException", "The security token included in the request is invalid.");
  if (service !== "bedrock")
    return denied("InvalidSignatureException", `Credential should be scoped to correct service: 'bedrock'.`);
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  if (!amzDate.startsWith(date)) return denied("InvalidSignatureException", "Date in Credential scope does not match.");
  const url = new URL(req.url ?? "/", "http://stub");
  const canonicalPath = url.pathname
    .split("/")
    .map((segment) => rfc3986(segment))
    .join("/");
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join("&");
  const names = signedHeaders.split(";");
  const headerLines = names.map((name) => {
    const value = req.headers[name];
    return `${name}:${(Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ")}\n`;
  });
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? hex(body));
  const canonical = [req.method, canonicalPath, query, headerLines.join(""), signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, hex(canonical)].join("\n");
  let key = hmac(`AWS4${keys.secretAccessKey}`, date);
  for (const part of [region, service, "aws4_request"]) key = hmac(key, part);
  const expected = createHmac("sha256", key).update(toSign).digest();
  if (!names.includes("host") || !timingSafeEqual(expected, Buffer.from(signature, "hex")))
    return denied(
      "InvalidSignatureException",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
    );
  return { region };
}

function blocksText(blocks: Block[]): string {
  return blocks
    .filter((b) => typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}

/** The request's system prompt and messages as the brain reads them (tool results become tool messages). */
export function readBedrockMessages(body: Record<string, unknown>): ChatMessage[] {
  const out: ChatMessage[] = [];
  const system = blocksText((body.system ?? []) as Block[]);
  if (system) out.push({ role: "system", content: system });
  for (const m of (body.messages ?? []) as { role: string; content?: Block[] }[]) {
    const blocks = m.content ?? [];
    for (const r of blocks.filter((b) => b.toolResult)) {
      const parts = r.toolResult?.content ?? [];
      out.push({
        role: "tool",
        tool_call_id: r.toolResult?.toolUseId,
        content: parts.map((p) => (typeof p.text === "string" ? p.text : JSON.stringify(p.json))).join(""),
      });
    }
    const text = blocksText(blocks);
    const uses = blocks.filter((b) => b.toolUse);
    const images = blocks.filter((b) => b.image).length;
    if (m.role === "assistant") {
      if (!text && !uses.length) continue;
      out.push({
        role: "assistant",
        content: text || null,
        ...(uses.length
          ? {
              tool_calls: uses.map((b) => ({
                id: String(b.toolUse?.toolUseId),
                type: "function" as const,
                function: { name: String(b.toolUse?.name), arguments: JSON.stringify(b.toolUse?.input ?? {}) },
              })),
            }
          : {}),
      });
    } else if (text || images) {
      out.push({
        role: "user",
        content: images
          ? [
              { type: "text", text },
              ...Array.from({ length: images }, () => ({ type: "image_url", image_url: { url: "bytes" } })),
            ]
          : text,
      });
    }
  }
  return out;
}

/** The request's tool specs as the brain reads them. */
export function readBedrockTools(body: Record<string, unknown>): ToolDefinition[] {
  const config = body.toolConfig as { tools?: { toolSpec?: Record<string, unknown> }[] } | undefined;
  return (config?.tools ?? [])
    .flatMap((t) => (t.toolSpec ? [t.toolSpec] : []))
    .map((spec) => ({
      name: String(spec.name),
      description: String(spec.description ?? ""),
      parameters: ((spec.inputSchema as { json?: unknown } | undefined)?.json ?? {}) as ToolDefinition["parameters"],
    }));
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

function usage(messages: ChatMessage[], reply: ContentReply | ToolCallReply) {
  const input = messages.reduce((n, m) => n + words(textOf(m.content)) + 4, 0);
  const output = Math.max(1, words("content" in reply ? reply.content : JSON.stringify(reply.toolCalls)));
  return { inputTokens: input, outputTokens: output, totalTokens: input + output };
}

let useCounter = 0;
const toolUseId = () => `tooluse_stub${(++useCounter).toString().padStart(6, "0")}`;

/** The whole answer of Converse. */
export function bedrockResponse(reply: ContentReply | ToolCallReply, messages: ChatMessage[]) {
  const content =
    "content" in reply
      ? [{ text: reply.content }]
      : reply.toolCalls.map((c) => ({ toolUse: { toolUseId: toolUseId(), name: c.name, input: c.arguments } }));
  return {
    output: { message: { role: "assistant", content } },
    stopReason: "content" in reply ? "end_turn" : "tool_use",
    usage: usage(messages, reply),
    metrics: { latencyMs: 1 },
  };
}

/** The events of ConverseStream, each as its type and JSON payload. */
export function bedrockEvents(
  reply: ContentReply | ToolCallReply,
  messages: ChatMessage[],
): { type: string; payload: Record<string, unknown> }[] {
  const events: { type: string; payload: Record<string, unknown> }[] = [
    { type: "messageStart", payload: { role: "assistant" } },
  ];
  if ("content" in reply) {
    for (const text of splitLeading(reply.content))
      events.push({ type: "contentBlockDelta", payload: { contentBlockIndex: 0, delta: { text } } });
    events.push({ type: "contentBlockStop", payload: { contentBlockIndex: 0 } });
  } else {
    reply.toolCalls.forEach((call, i) => {
      const input = JSON.stringify(call.arguments);
      const half = Math.ceil(input.length / 2);
      events.push(
        {
          type: "contentBlockStart",
          payload: { contentBlockIndex: i, start: { toolUse: { toolUseId: toolUseId(), name: call.name } } },
        },
        // The input arrives as pieces of a JSON text, as Bedrock sends it.
        {
          type: "contentBlockDelta",
          payload: { contentBlockIndex: i, delta: { toolUse: { input: input.slice(0, half) } } },
        },
        {
          type: "contentBlockDelta",
          payload: { contentBlockIndex: i, delta: { toolUse: { input: input.slice(half) } } },
        },
        { type: "contentBlockStop", payload: { contentBlockIndex: i } },
      );
    });
  }
  events.push(
    { type: "messageStop", payload: { stopReason: "content" in reply ? "end_turn" : "tool_use" } },
    { type: "metadata", payload: { usage: usage(messages, reply), metrics: { latencyMs: 1 } } },
  );
  return events;
}

function header(name: string, value: string): Buffer {
  const n = Buffer.from(name, "utf8");
  const v = Buffer.from(value, "utf8");
  const out = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
  out.writeUInt8(n.length, 0);
  n.copy(out, 1);
  out.writeUInt8(7, 1 + n.length); // 7: a string value
  out.writeUInt16BE(v.length, 2 + n.length);
  v.copy(out, 4 + n.length);
  return out;
}

/**
 * One frame of AWS's event stream encoding: total length and headers length (4 bytes each), their
 * CRC32, the headers, the payload, and a CRC32 of all that came before.
 */
export function eventStreamFrame(headers: Record<string, string>, payload: Buffer): Buffer {
  const head = Buffer.concat(Object.entries(headers).map(([k, v]) => header(k, v)));
  const total = 12 + head.length + payload.length + 4;
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(head.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude), 0);
  const body = Buffer.concat([prelude, preludeCrc, head, payload]);
  const messageCrc = Buffer.alloc(4);
  messageCrc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([body, messageCrc]);
}

/** An event of ConverseStream as a frame. */
export function eventFrame(type: string, payload: Record<string, unknown>): Buffer {
  return eventStreamFrame(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    Buffer.from(JSON.stringify(payload)),
  );
}

/** An error inside a stream (e.g. throttlingException), as Bedrock sends it after the 200. */
export function exceptionFrame(type: string, message: string): Buffer {
  return eventStreamFrame(
    { ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
    Buffer.from(JSON.stringify({ message })),
  );
}

/** The stub's answer to a Converse or ConverseStream call. */
export function bedrockReply(reply: BrainReply, target: { stream: boolean }, messages: ChatMessage[]): Reply {
  if ("error" in reply) return bedrockError(reply.error.status, reply.error.message);
  const { delivery } = reply;
  if (target.stream)
    return { eventStream: bedrockEvents(reply, messages).map((e) => eventFrame(e.type, e.payload)), delivery };
  return { status: 200, json: bedrockResponse(reply, messages), delivery };
}

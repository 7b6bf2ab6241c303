import { randomUUID } from "node:crypto";
import { AppError } from "../errors";
import { getEnv } from "../env";
import type { Chatflow } from "../db/generated/client";
import type { ChatType } from "../db/generated/enums";
import { findSessionHistory, insertExchange } from "../db/queries/chat-messages";
import type { Caller } from "../access/callers";
import { assertChatflowInScope, mayAct } from "../access/permissions";
import { enforcePublicChatflowLimit } from "../access/rate-limit";
import { checkDataUrlUpload, storeUpload, type CheckedUpload } from "../security/uploads";
import { withUploadsLock } from "../security/stored-files";
import type { PredictionBody } from "../schemas/prediction";
import type { PredictionResponse } from "../schemas/prediction-stream";
import type { BuiltFlow, HistoryMessage } from "../flow";
import { getChatflowForRun } from "./chatflows";
import { getBuiltFlow } from "./flows";
import { speechSettings, transcribe } from "./speech";

/** How many stored messages of a session are read for memory nodes (they window further). */
const HISTORY_READ_LIMIT = 200;

export interface PredictionRequest {
  chatflowId: string;
  body: PredictionBody;
  caller: Caller;
  /** The browser's Origin header, checked for public chatflows. */
  origin: string | null;
  clientIp: string;
}

/** The answer of a prediction: the JSON body, and what the stream's events carry (lib/schemas/prediction-stream.ts). */
export type PredictionResult = PredictionResponse;

/** A checked prediction, ready to run: everything that can be refused with a 4xx already was. */
export interface PreparedPrediction {
  chatflow: Chatflow;
  flow: BuiltFlow;
  chatId: string;
  sessionId: string;
  execute(opts: { onToken?: (t: string) => void; signal?: AbortSignal }): Promise<PredictionResult>;
}

/**
 * Whether the caller may run this chatflow as its manager (admins any; builders and their keys their
 * own, keys in scope), as opposed to as the public. 403 for a key scoped elsewhere.
 */
export function mayRunAsManager(chatflow: Pick<Chatflow, "id" | "ownerId">, caller: Caller): boolean {
  assertChatflowInScope(caller, chatflow.id);
  return mayAct(caller, "chatflow.predict", chatflow.ownerId);
}

/**
 * Who may chat with a chatflow (predict, rate answers, leave a lead): its manager, or anyone on a
 * public chatflow from an allowed origin (or no browser origin), within the public rate limit.
 */
export async function assertMayChat(
  chatflow: Chatflow,
  req: { chatflowId: string; caller: Caller; origin: string | null; clientIp: string },
): Promise<void> {
  if (mayRunAsManager(chatflow, req.caller)) return;
  // Another user's private chatflow is unknown to every other caller, anonymous ones included: the
  // same answer as for an unknown id, so nobody can learn which private ids exist.
  if (!chatflow.isPublic) throw new AppError("not_found", `Chatflow ${req.chatflowId} not found.`);
  if (req.origin && !chatflow.allowedOrigins.includes(req.origin)) {
    throw new AppError("forbidden", `Origin ${req.origin} is not allowed to use this chatflow.`);
  }
  await enforcePublicChatflowLimit(chatflow, req.clientIp);
}

/** A chatflow the caller may run (manager, or public): what the streaming check answers for. 404 otherwise. */
export async function getRunnableChatflow(id: string, caller: Caller): Promise<Chatflow> {
  const chatflow = await getChatflowForRun(id);
  if (!mayRunAsManager(chatflow, caller) && !chatflow.isPublic)
    throw new AppError("not_found", `Chatflow ${id} not found.`);
  return chatflow;
}

/** Splits and checks uploads: images need a model that takes them, audio needs speech-to-text on. */
function checkUploads(body: PredictionBody, flow: BuiltFlow, chatflow: Chatflow) {
  const env = getEnv();
  const uploads = body.uploads ?? [];
  if (uploads.length > env.UPLOAD_MAX_FILES) {
    throw new AppError("validation_failed", `uploads: at most ${env.UPLOAD_MAX_FILES} files per request.`);
  }
  const checked = uploads.map((u, i) => {
    const kind = u.type === "audio" ? "audio" : "image";
    const field = `uploads.${i}`;
    if (kind === "image" && !flow.allowsImages) {
      throw new AppError(
        "bad_request",
        `${field}: image uploads are not enabled in this chatflow (turn on "Allow image uploads" on its chat model).`,
      );
    }
    if (kind === "audio" && !speechSettings(chatflow.speechToText)) {
      throw new AppError("bad_request", `${field}: speech-to-text is not enabled in this chatflow.`);
    }
    return checkDataUrlUpload(u, { kind, maxBytes: env.UPLOAD_MAX_BYTES, field });
  });
  return { images: checked.filter((u) => u.kind === "image"), audio: checked.filter((u) => u.kind === "audio") };
}

/** Validates a prediction and builds (or reuses) the flow; throws 4xx before any answer starts. */
export async function preparePrediction(req: PredictionRequest, chatType: ChatType): Promise<PreparedPrediction> {
  const chatflow = await getChatflowForRun(req.chatflowId);
  await assertMayChat(chatflow, req);
  const { body } = req;
  const flow = await getBuiltFlow(chatflow, body.overrideConfig);
  const uploads = checkUploads(body, flow, chatflow);
  const chatId = body.chatId ?? body.overrideConfig?.sessionId ?? randomUUID();
  const sessionId = body.overrideConfig?.sessionId ?? chatId;
  return {
    chatflow,
    flow,
    chatId,
    sessionId,
    execute: (opts) => executePrediction({ chatflow, flow, body, chatId, sessionId, chatType, uploads, ...opts }),
  };
}

async function executePrediction(args: {
  chatflow: Chatflow;
  flow: BuiltFlow;
  body: PredictionBody;
  chatId: string;
  sessionId: string;
  chatType: ChatType;
  uploads: { images: CheckedUpload[]; audio: CheckedUpload[] };
  onToken?: (t: string) => void;
  signal?: AbortSignal;
}): Promise<PredictionResult> {
  const { chatflow, flow, body, chatId, sessionId, uploads } = args;
  const askedAt = new Date();
  let question = body.question?.trim() ?? "";
  if (!question && uploads.audio[0])
    question = await transcribe(
      uploads.audio[0],
      speechSettings(chatflow.speechToText)!,
      chatflow.ownerId,
      args.signal,
    );
  const stored: HistoryMessage[] = flow.memoryType
    ? await findSessionHistory({ chatflowId: chatflow.id, sessionId, limit: HISTORY_READ_LIMIT })
    : [];
  const result = await flow.run({
    question,
    history: [...(body.history ?? []), ...stored],
    images: uploads.images.map((u) => ({ mime: u.mime, base64: u.bytes.toString("base64") })),
    signal: args.signal,
    onToken: args.onToken,
  });
  const wantSources = body.overrideConfig?.returnSourceDocuments === true;
  const files = [...uploads.images, ...uploads.audio];
  // Stored files are shared by content hash: write and reference them under the lock a deletion takes.
  const persist = async () =>
    insertExchange({
      chatflowId: chatflow.id,
      sessionId,
      chatId,
      chatType: args.chatType,
      memoryType: flow.memoryType,
      question,
      fileUploads: await storeUploads(chatflow.id, files),
      answer: result.text,
      askedAt,
      answeredAt: new Date(),
      usedTools: result.usedTools.length ? result.usedTools : undefined,
      sourceDocuments: result.sourceDocuments?.length ? result.sourceDocuments : undefined,
    });
  const ids = files.length ? await withUploadsLock(chatflow.id, persist) : await persist();
  return {
    text: result.text,
    question,
    chatId,
    chatMessageId: ids.apiMessageId,
    sessionId,
    ...(flow.memoryType ? { memoryType: flow.memoryType } : {}),
    ...(result.usedTools.length ? { usedTools: result.usedTools } : {}),
    ...(wantSources ? { sourceDocuments: result.sourceDocuments ?? [] } : {}),
  };
}

async function storeUploads(chatflowId: string, uploads: CheckedUpload[]) {
  if (!uploads.length) return undefined;
  const dataDir = getEnv().DATA_DIR;
  return Promise.all(
    uploads.map(async (u) => ({
      type: u.kind === "audio" ? "audio" : "file",
      name: u.name,
      mime: u.mime,
      path: await storeUpload(dataDir, chatflowId, u),
    })),
  );
}

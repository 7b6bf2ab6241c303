import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import { findChatflowById } from "../db/queries/chatflows";
import { findUploadInChat } from "../db/queries/chat-messages";
import type { Caller } from "@/common/access/callers";
import { assertChatflowInScope, mayAct } from "@/common/access/permissions";
import { chatflowUploadsDir } from "../security/stored-files";
import { AUDIO_TYPES, IMAGE_TYPES } from "../security/uploads";

/**
 * GET /api/v1/get-upload-file (Flowise): a file uploaded in a chat, for the widget to show again.
 * Like Flowise, on a public chatflow whoever knows the chat's id and the file's name may read it
 * (chat ids are the visitor's random ids); a private chatflow's files only its managers and the
 * Message API's readers. Everything else — unknown chatflow, chat or name, a stored path outside
 * the chatflow's folder, a missing file — is the same 404.
 */
export async function readUploadFile(
  args: { chatflowId: string; chatId: string; fileName: string },
  caller: Caller,
): Promise<{ bytes: Buffer; mime: string; name: string }> {
  const notFound = () => new AppError("not_found", `File ${args.fileName} not found in chat ${args.chatId}.`);
  assertChatflowInScope(caller, args.chatflowId);
  const chatflow = await findChatflowById({ id: args.chatflowId });
  if (!chatflow) throw notFound();
  const reader =
    mayAct(caller, "chatflow.predict", chatflow.ownerId) || mayAct(caller, "chatmessage.read", chatflow.ownerId);
  if (!reader && !chatflow.isPublic) throw notFound();
  const entry = await findUploadInChat({ chatflowId: chatflow.id, chatId: args.chatId, name: args.fileName });
  if (!entry) throw notFound();
  const dataDir = path.resolve(getEnv().DATA_DIR);
  const folder = path.resolve(dataDir, chatflowUploadsDir(chatflow.id));
  const full = path.resolve(dataDir, entry.path);
  // Stored paths are ours, but a path leaving this chatflow's folder is never served.
  if (!full.startsWith(folder + path.sep)) throw notFound();
  const bytes = await fs.readFile(full).catch(() => {
    throw notFound();
  });
  // Only the media types uploads are checked against are served as such; anything else is a download.
  const mime =
    entry.mime && [...IMAGE_TYPES, ...AUDIO_TYPES].includes(entry.mime) ? entry.mime : "application/octet-stream";
  return { bytes, mime, name: args.fileName };
}

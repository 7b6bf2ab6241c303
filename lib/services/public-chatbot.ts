import { z } from "zod";
import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import type { Chatflow } from "../db/generated/client";
import { chatflowAtVersion } from "./chatflow-versions";
import { existsPublicChatflowWithOrigin, findChatflowById } from "../db/queries/chatflows";
import { findFeedbackById } from "../db/queries/feedback";
import type { Caller } from "@/common/access/callers";
import { assertChatflowInScope, mayAct } from "@/common/access/permissions";
import { takesImages } from "@/common/nodes/capabilities";
import { getDefinition } from "../nodes/registry";
import { chatbotConfigSchema, widgetThemeSchema, type WidgetTheme } from "@/common/schemas/chatflow";
import type { publicChatbotConfigResponseSchema, uploadsConfigResponseSchema } from "@/common/schemas/responses";
import { IMAGE_TYPES } from "../security/uploads";
import { speechSettings } from "./speech";

/**
 * What uploads a chatflow takes: ours (images, audio, maxBytes, maxFiles) and, next to them, the
 * fields Flowise's clients read (GET /chatflows-uploads/{id}, the embed's upload and mic buttons).
 */
export type UploadsConfig = z.output<typeof uploadsConfigResponseSchema>;

/** What the widget may know about a chatflow: looks and enabled features, nothing else. */
export type PublicChatbotConfig = z.output<typeof publicChatbotConfigResponseSchema>;

const THEME_KEYS = [
  "primaryColor",
  "backgroundColor",
  "textColor",
  "botBubbleColor",
  "userBubbleColor",
  "avatarUrl",
  "position",
  "colorScheme",
] as const;

/** Whether any node of a saved graph takes images now (read without building; see takesImages). */
export function graphAllowsImages(graph: unknown): boolean {
  const nodes = (graph as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return false;
  return nodes.some((n: { type?: unknown; data?: { inputs?: Record<string, unknown> } }) => {
    const def = typeof n?.type === "string" ? getDefinition(n.type) : undefined;
    return def !== undefined && takesImages(def, n.data?.inputs);
  });
}

/** Keeps only the theme keys the widget knows, each valid; a bad saved value is dropped, not served. */
function publicTheme(raw: unknown): WidgetTheme {
  const theme: Record<string, unknown> = {};
  const source = savedFields(raw);
  for (const key of THEME_KEYS) {
    const parsed = widgetThemeSchema.shape[key].safeParse(source[key]);
    if (parsed.success && parsed.data !== undefined) theme[key] = parsed.data;
  }
  return theme as WidgetTheme;
}

/** A saved settings object's fields, each still to be read with its schema ({} for anything but an object). */
function savedFields(raw: unknown): Record<string, unknown> {
  return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

/** Reads each saved field on its own, so one bad value (saved before a schema change) costs only itself. */
function readConfig(raw: unknown) {
  const source = savedFields(raw);
  const { shape } = chatbotConfigSchema;
  const ok = <T>(r: { success: boolean; data?: T }) => (r.success ? r.data : undefined);
  return {
    title: ok(shape.title.safeParse(source.title)),
    welcomeMessage: ok(shape.welcomeMessage.safeParse(source.welcomeMessage)),
    starterPrompts: ok(shape.starterPrompts.safeParse(source.starterPrompts)),
    inputPlaceholder: ok(shape.inputPlaceholder.safeParse(source.inputPlaceholder)),
    chatFeedback: ok(shape.chatFeedback.safeParse(source.chatFeedback)),
    leads: ok(shape.leads.safeParse(source.leads)),
    showToolCalls: ok(shape.showToolCalls.safeParse(source.showToolCalls)),
  };
}

/** Whether a chatflow's widget shows thumbs (feedback is accepted only then). */
export function feedbackEnabled(chatflow: Pick<Chatflow, "chatbotConfig">): boolean {
  return readConfig(chatflow.chatbotConfig).chatFeedback?.status === true;
}

/** Whether anonymous visitors of a chatflow see its tool calls (usedTools, toolStart): off unless turned on. */
export function visitorsSeeToolCalls(chatflow: Pick<Chatflow, "chatbotConfig">): boolean {
  return readConfig(chatflow.chatbotConfig).showToolCalls === true;
}

/** Whether a chatflow's widget asks for leads (leads are accepted only then). */
export function leadsEnabled(chatflow: Pick<Chatflow, "chatbotConfig">): boolean {
  return readConfig(chatflow.chatbotConfig).leads?.status === true;
}

/** A chatflow's uploads in our fields and Flowise's. */
export function uploadsConfig(chatflow: Pick<Chatflow, "graph" | "speechToText">): UploadsConfig {
  const env = getEnv();
  const images = graphAllowsImages(chatflow.graph);
  const audio = speechSettings(chatflow.speechToText) !== null;
  return {
    images,
    audio,
    maxBytes: env.UPLOAD_MAX_BYTES,
    maxFiles: env.UPLOAD_MAX_FILES,
    isImageUploadAllowed: images,
    isSpeechToTextEnabled: audio,
    isRAGFileUploadAllowed: false,
    imgUploadSizeAndTypes: images
      ? [{ fileTypes: [...IMAGE_TYPES], maxUploadSize: Math.floor((env.UPLOAD_MAX_BYTES / 1024 / 1024) * 100) / 100 }]
      : [],
    fileUploadSizeAndTypes: [],
  };
}

/** Whether a browser origin may use a chatflow without a key (public, and listed). */
export function originMayChat(chatflow: Pick<Chatflow, "isPublic" | "allowedOrigins">, origin: string): boolean {
  return chatflow.isPublic && chatflow.allowedOrigins.includes(origin);
}

/**
 * The widget's view of a chatflow. Anonymous callers see public chatflows only (a private one is
 * 404, the same answer as an unknown id); the chatflow's managers (admins; its owner and their keys in scope) see it private too, for previews.
 */
export async function getPublicChatbotConfig(args: {
  chatflowId: string;
  caller: Caller;
  origin: string | null;
}): Promise<PublicChatbotConfig> {
  // A key scoped to other chatflows learns nothing about this one, public or not.
  assertChatflowInScope(args.caller, args.chatflowId);
  const row = await findChatflowById({ id: args.chatflowId });
  const manager = !!row && mayAct(args.caller, "chatflow.predict", row.ownerId);
  if (!row || !(row.isPublic || manager)) throw new AppError("not_found", `Chatflow ${args.chatflowId} not found.`);
  // The widget runs the published version: its uploads (images, speech-to-text) are that version's;
  // the chatbot's settings (title, welcome, prompts, theme…) are the row's, applied at once.
  const chatflow = await chatflowAtVersion(row, "published");
  const config = readConfig(chatflow.chatbotConfig);
  const prompts = (config.starterPrompts ?? []).filter((p) => p.trim() !== "");
  return {
    chatflowId: chatflow.id,
    title: config.title?.trim() || chatflow.name,
    welcomeMessage: config.welcomeMessage ?? "",
    starterPrompts: Object.fromEntries(prompts.map((prompt, i) => [String(i), { prompt }])),
    inputPlaceholder: config.inputPlaceholder ?? "",
    theme: publicTheme(savedFields(chatflow.chatbotConfig).theme),
    uploads: uploadsConfig(chatflow),
    chatFeedback: { status: config.chatFeedback?.status === true },
    ...(config.leads ? { leads: config.leads } : {}),
    showToolCalls: config.showToolCalls === true,
    originAllowed: args.origin === null ? null : manager || originMayChat(chatflow, args.origin),
  };
}

/**
 * What the full-page chat (/chat/{id}) shows: a public chatflow's chat; for a private one, that it
 * is not public, with no name or anything else (its managers, signed in, also get its name, whether
 * a version is published, and where to make it public). Null for an unknown id or one that is no
 * UUID: the page is a plain not-found then.
 */
export type ChatPageView =
  | { kind: "public"; chatflowId: string; title: string }
  | { kind: "private" }
  | { kind: "private-managed"; chatflowId: string; name: string; publishedVersion: number | null };

/** The full-page chat's view of chatflow `id` for `caller` (see ChatPageView). */
export async function getChatPageView(id: string, caller: Caller): Promise<ChatPageView | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const row = await findChatflowById({ id });
  // An unknown id looks like a private flow: the page must not tell visitors which ids exist.
  if (!row) return { kind: "private" };
  if (!row.isPublic) {
    // Those who may make it public (its owner, admins) learn which flow it is; anyone else only that it is private.
    if (caller.kind !== "user" || !mayAct(caller, "chatflow.update", row.ownerId)) return { kind: "private" };
    return { kind: "private-managed", chatflowId: row.id, name: row.name, publishedVersion: row.publishedVersion };
  }
  // The chatbot's settings are the row's (not versioned: they apply at once).
  return { kind: "public", chatflowId: row.id, title: readConfig(row.chatbotConfig).title?.trim() || row.name };
}

/**
 * The origins that get CORS headers for a chatflow's prediction endpoint: its allowed origins
 * when it is public, none otherwise (private chatflows are for server-side callers with keys).
 */
export async function corsOriginsForChatflow(chatflowId: string): Promise<string[]> {
  if (!z.uuid().safeParse(chatflowId).success) return [];
  const chatflow = await findChatflowById({ id: chatflowId });
  return chatflow?.isPublic ? chatflow.allowedOrigins : [];
}

/** CORS for a route whose id is a chatflow's or a feedback's (POST and PUT /feedback/{id}). */
export async function corsOriginsForChatflowOrFeedback(id: string): Promise<string[]> {
  if (!z.uuid().safeParse(id).success) return [];
  const direct = await corsOriginsForChatflow(id);
  if (direct.length) return direct;
  const feedback = await findFeedbackById(id);
  return feedback ? corsOriginsForChatflow(feedback.chatflowId) : [];
}

/**
 * CORS for a route whose chatflow is named in the body (POST /leads): an origin some public
 * chatflow allows. The service still refuses (403) an origin that chatflow does not list.
 */
export async function corsOriginsForAnyPublicChatflow(origin: string): Promise<string[]> {
  return (await existsPublicChatflowWithOrigin({ origin })) ? [origin] : [];
}

import { pageParams } from "./pagination";
import { z } from "zod";
import { graphSchema } from "./graph";
import { AVATAR_MAX_BYTES, MAX_STARTER_PROMPTS } from "./chatbot-limits";

export { AVATAR_MAX_BYTES, MAX_STARTER_PROMPTS };

/** An origin like https://shop.example.com or http://127.0.0.1:5173 (no path). */
export const originSchema = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "http:" || u.protocol === "https:") && u.origin === s.replace(/\/$/, "");
    } catch {
      return false;
    }
  }, "must be an origin such as https://example.com (scheme, host, optional port; no path)")
  .transform((s) => new URL(s).origin)
  // What the document shows: lower-case host names (the check compares with the URL's own origin),
  // a port that is no scheme's default.
  .meta({
    override: {
      pattern:
        "^https?://([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z]([a-z0-9-]{0,61}[a-z0-9])?(:(10\\d\\d|[2-9]\\d{3}|[1-5]\\d{4}))?/?$",
    },
  });

/** Shape of a saved graph (common/schemas/graph.ts); node-by-node checks run in lib/flow before a run. */
export const graphShapeSchema = graphSchema;

export const rateLimitSchema = z.object({
  max: z.number().int().min(1).max(100_000),
  windowSec: z.number().int().min(1).max(86_400),
});

/** A colour of the widget's theme: `#rrggbb` (what a colour picker gives; nothing that could carry CSS). */
const hexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-f]{6}$/i, "must be a colour as #rrggbb, e.g. #0f766e");

/** The longest avatar value: a data URL of AVATAR_MAX_BYTES in base64, plus its header. */
const AVATAR_MAX_CHARS = Math.ceil(AVATAR_MAX_BYTES / 3) * 4 + 64;

/** The bot's avatar: an https image URL, or a small data:image (png, jpeg, gif, webp) URL. */
export const avatarUrlSchema = z
  .string()
  .trim()
  .max(AVATAR_MAX_CHARS, `must be at most ${AVATAR_MAX_BYTES / 1024} KB (an inline image) or a shorter URL`)
  .refine((s) => {
    if (s.startsWith("data:")) return /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(s);
    try {
      const u = new URL(s);
      return u.protocol === "https:" && !/\s/.test(s);
    } catch {
      return false;
    }
  }, "must be an https:// image URL or a data:image/png|jpeg|gif|webp;base64 URL")
  .meta({
    override: {
      pattern:
        "^(data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}|https://([a-z0-9-]+\\.)+[a-z]{2,}(/[A-Za-z0-9._~/-]*)?)$",
    },
  });

/** The embed widget's look. Unknown keys are kept (strings) so older saved themes stay valid. */
export const widgetThemeSchema = z
  .object({
    primaryColor: hexColor.optional(),
    backgroundColor: hexColor.optional(),
    textColor: hexColor.optional(),
    botBubbleColor: hexColor.optional(),
    userBubbleColor: hexColor.optional(),
    avatarUrl: avatarUrlSchema.optional(),
    /** Which corner the chat bubble sits in. */
    position: z.enum(["right", "left"]).optional(),
    /** Light or dark widget; "auto" (or unset) follows the visitor's prefers-color-scheme. */
    colorScheme: z.enum(["auto", "light", "dark"]).optional(),
  })
  .catchall(z.string().max(200));

export const leadsConfigSchema = z
  .object({
    status: z.boolean(),
    title: z.string().max(200).optional(),
    successMessage: z.string().max(1000).optional(),
    name: z.boolean().optional(),
    email: z.boolean().optional(),
    phone: z.boolean().optional(),
  })
  .strict();

export const chatbotConfigSchema = z
  .object({
    title: z.string().max(200).optional(),
    welcomeMessage: z.string().max(2000).optional(),
    starterPrompts: z.array(z.string().max(300)).max(MAX_STARTER_PROMPTS).optional(),
    /** Placeholder of the widget's message box. */
    inputPlaceholder: z.string().max(200).optional(),
    theme: widgetThemeSchema.optional(),
    /** Flowise's thumbs under each answer (stored as feedback, shown in Conversations). */
    chatFeedback: z.object({ status: z.boolean() }).strict().optional(),
    /** Flowise's lead capture form: which fields it asks for, its title and thank-you text. */
    leads: leadsConfigSchema.optional(),
    /**
     * Whether anonymous visitors (the widget, the full-page chat) see the tools an answer used: off
     * by default, and then the server leaves usedTools and toolStart out of their answers. API keys
     * and the studio always get them.
     */
    showToolCalls: z.boolean().optional(),
  })
  .strict();

export type LeadsConfig = z.infer<typeof leadsConfigSchema>;
export type WidgetTheme = z.infer<typeof widgetThemeSchema>;
export type ChatbotConfig = z.infer<typeof chatbotConfigSchema>;

export const speechToTextSchema = z
  .object({
    enabled: z.boolean(),
    baseUrl: z.url().optional(),
    model: z.string().max(200).optional(),
    credentialId: z.uuid().optional(),
  })
  .strict();

const chatflowFields = {
  name: z.string().trim().min(1, "is required").max(200),
  description: z.string().max(5000),
  graph: graphShapeSchema,
  isPublic: z.boolean(),
  allowedOrigins: z.array(originSchema).max(100),
  rateLimit: rateLimitSchema.nullable(),
  /** Params a caller may override; the server refuses names that can never be overridden (lib/services/chatflows.ts). */
  overrideAllowList: z.array(z.string().min(1).max(200)).max(200),
  /** The chatbot's look and widget features: not versioned, they apply at once (as the public switch does). */
  chatbotConfig: chatbotConfigSchema,
  speechToText: speechToTextSchema,
  /** Refuse to publish a version whose test cases fail or have not run. */
  requirePassingTests: z.boolean(),
  /** A note stored with the version this save creates (a save of the graph or run settings). */
  versionMessage: z.string().trim().max(500),
};

/** What a flow is (Flowise's words): a chatflow (a chain or agent) or an agentflow (steps run in order). */
export const chatflowTypeSchema = z.enum(["CHATFLOW", "AGENTFLOW"]);
export type ChatflowType = z.infer<typeof chatflowTypeSchema>;

/** GET /api/v1/chatflows?type=AGENTFLOW: only flows of that kind (Flowise's filter). */
export const listChatflowsQuerySchema = z.object({ type: chatflowTypeSchema.optional(), ...pageParams("chatflows") });

/**
 * POST /api/v1/chatflows: unknown fields are refused (400 naming them), never mass-assigned. `type`
 * is chosen at creation only (default CHATFLOW): a graph's nodes belong to one kind.
 */
export const createChatflowSchema = z
  .object({ ...chatflowFields, name: chatflowFields.name, type: chatflowTypeSchema })
  .partial()
  .required({ name: true })
  .strict();

/**
 * PUT /api/v1/chatflows/{id}: any subset; `expectedVersion` turns on conflict detection (409);
 * `ownerId` transfers the chatflow (admins only).
 */
/** Largest value of a PostgreSQL `integer` column (Chatflow.version): a bigger one fails the query. */
const MAX_INT4 = 2_147_483_647;

/** The fields whose save makes a new version (the graph and the run settings; chatbotConfig applies at once). */
const VERSIONED_FIELDS = ["graph", "overrideAllowList", "speechToText"];

export const updateChatflowSchema = z
  .object({
    ...chatflowFields,
    expectedVersion: z.number().int().min(1).max(MAX_INT4, `must be at most ${MAX_INT4}`),
    ownerId: z.uuid({ error: "must be a user UUID" }),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).some((k) => k !== "expectedVersion"), "nothing to update")
  // The document says the two rules no schema of fields shows: some field besides expectedVersion,
  // and a versionMessage only with what makes a version (lib/services/chatflows.ts savesVersion):
  // a versioned field, or another field without a versionMessage.
  .meta({
    override: {
      anyOf: [
        ...VERSIONED_FIELDS.map((field) => ({ required: [field] })),
        ...[...Object.keys(chatflowFields), "ownerId"]
          .filter((field) => field !== "versionMessage" && !VERSIONED_FIELDS.includes(field))
          .map((field) => ({ required: [field], properties: { versionMessage: false } })),
      ],
    },
  });

export type CreateChatflowInput = z.infer<typeof createChatflowSchema>;
export type UpdateChatflowInput = z.infer<typeof updateChatflowSchema>;

/**
 * A chatflow as the API answers it (GET, POST and PUT /api/v1/chatflows…): toChatflowDto in
 * lib/services/chatflows.ts, serialised as JSON (dates as ISO strings). The studio's type of it.
 */
export const chatflowResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    /** CHATFLOW or AGENTFLOW. */
    type: chatflowTypeSchema,
    /** The latest version (the draft): the studio edits it; `expectedVersion` compares with it. */
    version: z.number().int(),
    /** The version the API, upsert, widget and public pages run; null: never published (they run the latest). */
    publishedVersion: z.number().int().nullable(),
    requirePassingTests: z.boolean(),
    /** The saved graph, checked node by node (lib/flow) only before a run. */
    graph: z.unknown(),
    isPublic: z.boolean(),
    allowedOrigins: z.array(z.string()),
    rateLimit: rateLimitSchema.nullable(),
    overrideAllowList: z.array(z.string()),
    chatbotConfig: z.record(z.string(), z.unknown()),
    speechToText: z.record(z.string(), z.unknown()),
    ownerId: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Chatflow" });

export type ChatflowResponse = z.infer<typeof chatflowResponseSchema>;

import { z } from "zod";
import { API_KEY_PERMISSIONS } from "../access/callers";
import { chatflowResponseSchema, chatflowTypeSchema, leadsConfigSchema, widgetThemeSchema } from "./chatflow";
import { FEEDBACK_RATINGS } from "./feedback";
import { ANALYSIS_STATUSES } from "./domain";

/**
 * What the API answers, as zod schemas, for the OpenAPI document (lib/openapi) and its contract
 * test (tests/integration/openapi-contract.test.ts), which validates real answers against them.
 * Schemas of answers that already had one live beside their request schemas (chatflowResponseSchema,
 * predictionResponseSchema, chatMessageRecordSchema).
 */

const isoDate = z.iso.datetime();

/**
 * `{ error: { code, message, details? } }`: every error of every route (common/errors.ts). Open to more
 * fields: the OpenAI-compatible routes add OpenAI's `type` and `param` (common/schemas/openai.ts).
 */
export const errorResponseSchema = z
  .object({
    error: z.looseObject({
      code: z.string().meta({ description: "Machine-readable code, e.g. validation_failed, not_found" }),
      message: z.string(),
      details: z.unknown().optional(),
      /** The request's id (also in x-request-id): quote it when reporting a problem. */
      requestId: z.string().optional(),
    }),
  })
  .meta({ id: "Error" });

/** The owner summary shown with keys and credentials. */
const ownerSummary = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** A chatflow as listed: without its (possibly large) graph and settings. */
export const chatflowSummaryResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.number().int(),
    publishedVersion: z.number().int().nullable(),
    isPublic: z.boolean(),
    /** CHATFLOW or AGENTFLOW (GET /api/v1/chatflows?type= keeps one kind). */
    type: chatflowTypeSchema,
    createdAt: isoDate,
    updatedAt: isoDate,
    ownerId: z.string().nullable(),
    owner: ownerSummary.nullable(),
  })
  .meta({ id: "ChatflowSummary" });

export const pingResponseSchema = z
  .object({
    status: z.literal("ok"),
    service: z.string(),
    /** The request's id (also in x-request-id): the caller's well-formed one, else a new one. */
    requestId: z.string(),
  })
  .meta({ id: "Ping" });

/** An API key as listed: never the key or its hash. */
export const apiKeyResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
    allChatflows: z.boolean(),
    chatflowIds: z.array(z.string()),
    lastUsedAt: isoDate.nullable(),
    revokedAt: isoDate.nullable(),
    createdAt: isoDate,
    ownerId: z.string().nullable(),
    owner: ownerSummary.nullable(),
    status: z.enum(["active", "revoked"]),
  })
  .meta({ id: "ApiKey" });

/** A new key: the one answer that carries the key itself (shown once). */
export const createdApiKeyResponseSchema = apiKeyResponseSchema
  .extend({ key: z.string().meta({ description: "The key (sy_…); never shown again" }) })
  .meta({ id: "CreatedApiKey" });

/** A credential without its values (they are encrypted and never returned). */
/** POST /api/v1/credentials/{id}/test: whether the provider took the credential (never its values). */
export const credentialTestResponseSchema = z
  .object({
    ok: z.boolean(),
    host: z.string().optional(),
    status: z.number().int().optional(),
    message: z.string(),
  })
  .strict()
  .meta({ id: "CredentialTestResult" });

export const credentialResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    ownerId: z.string().nullable(),
    sharedWithBuilders: z.boolean(),
    createdAt: isoDate,
    updatedAt: isoDate,
    owner: ownerSummary.nullable(),
  })
  .strict()
  .meta({ id: "Credential" });

/** `{ deleted: true, id }`: what deleting a chatflow, credential or user answers. */
export const deletedResponseSchema = z.object({ deleted: z.literal(true), id: z.string() }).meta({ id: "Deleted" });

export const userResponseSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(["admin", "builder"]),
    createdAt: isoDate,
  })
  .strict()
  .meta({ id: "User" });

export const setupStatusResponseSchema = z.object({ needsSetup: z.boolean() }).meta({ id: "SetupStatus" });

export const streamingCheckResponseSchema = z.object({ isStreaming: z.boolean() }).meta({ id: "StreamingCheck" });

/** GET /api/v1/chatflows/{id}/validate: problems as data (codes in common/schemas/problems.ts). */
export const graphCheckResponseSchema = z
  .object({
    valid: z.boolean(),
    problems: z.array(
      z.looseObject({
        code: z.string(),
        nodeId: z.string().optional(),
        input: z.string().optional(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: "GraphCheck" });

/** One node definition of the registry (palette, form, handles); the full shape is lib/nodes' NodeDefinition. */
export const nodeDefinitionResponseSchema = z
  .looseObject({
    name: z.string(),
    version: z.number().int(),
    label: z.string(),
    category: z.string(),
    description: z.string(),
    inputs: z.array(z.looseObject({ name: z.string(), label: z.string() })),
    outputs: z.array(z.looseObject({ name: z.string(), label: z.string() })),
  })
  .meta({ id: "NodeDefinition" });

const upsertCounts = {
  numAdded: z.number().int(),
  numUpdated: z.number().int(),
  numSkipped: z.number().int(),
  numDeleted: z.number().int(),
};

export const upsertResponseSchema = z
  .object({
    ...upsertCounts,
    stores: z.array(z.object({ nodeId: z.string(), label: z.string(), ...upsertCounts })),
    addedDocs: z
      .array(z.object({ pageContent: z.string(), metadata: z.record(z.string(), z.unknown()) }))
      .optional()
      .meta({ description: "Only with returnSourceDocuments" }),
  })
  .meta({ id: "UpsertResult" });

export const vectorStoreResponseSchema = z
  .object({
    nodeId: z.string(),
    label: z.string(),
    type: z.string(),
    storeType: z.enum(["vector", "keyword"]),
    chunks: z.number().int(),
  })
  .meta({ id: "VectorStore" });

export const clearedStoreResponseSchema = z
  .object({ nodeId: z.string(), deleted: z.number().int() })
  .meta({ id: "ClearedStore" });

export const deletedCountResponseSchema = z.object({ deleted: z.number().int() }).meta({ id: "DeletedCount" });

const pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
  hasNext: z.boolean(),
});

export const sessionsResponseSchema = z
  .object({
    data: z.array(
      z.object({
        sessionId: z.string(),
        chatType: z.enum(["INTERNAL", "EXTERNAL"]),
        firstMessage: z.string(),
        messageCount: z.number().int(),
        firstAt: isoDate,
        lastAt: isoDate,
      }),
    ),
    pagination,
    /** The cursor of the next page (also in X-Next-Cursor); null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "Sessions" });

export const domainResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    isValid: z.boolean(),
    validationError: z.string().nullable(),
    analysis: z.object({ text: z.string(), json: z.unknown() }).nullable(),
    analysisChatflowId: z.string().nullable(),
    analysisStatus: z.enum(ANALYSIS_STATUSES).nullable(),
    analysisError: z.string().nullable(),
    analyzedAt: isoDate.nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "Domain" });

export const domainListResponseSchema = z
  .object({
    data: z.array(domainResponseSchema),
    pagination: pagination.extend({
      totalExact: z.boolean().meta({
        description:
          "false for a search with more than 1,000 matches (or more than the page asked for reaches): total and totalPages are then lower bounds (at least that many); hasNext stays exact.",
      }),
    }),
    /** The cursor of the next page (also in X-Next-Cursor); null on the last page and for the analyzedAt sort. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "DomainList" });

export const addDomainsResponseSchema = z
  .object({
    received: z.number().int(),
    added: z.number().int(),
    alreadyKnown: z.number().int(),
    invalid: z.number().int(),
    duplicates: z.number().int(),
    empty: z.number().int(),
    invalidNames: z.array(z.object({ name: z.string(), error: z.string().nullable() })),
  })
  .meta({ id: "AddDomainsResult" });

export const analysisRunResponseSchema = z
  .object({
    id: z.string(),
    chatflowId: z.string(),
    status: z.string(),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    createdAt: isoDate,
    finishedAt: isoDate.nullable(),
  })
  .meta({ id: "AnalysisRun" });

export const startAnalysisResponseSchema = z
  .object({ run: analysisRunResponseSchema.nullable(), queued: z.number().int(), skipped: z.number().int() })
  .meta({ id: "StartAnalysisResult" });

/**
 * What uploads a chatflow takes (GET /api/v1/chatflows-uploads/{id}, and `uploads` of the widget's
 * config): ours, and beside them the fields Flowise's clients read (lib/services/public-chatbot.ts UploadsConfig).
 */
export const uploadsConfigResponseSchema = z
  .object({
    images: z.boolean(),
    audio: z.boolean(),
    maxBytes: z.number().int(),
    maxFiles: z.number().int(),
    isImageUploadAllowed: z.boolean(),
    isSpeechToTextEnabled: z.boolean(),
    isRAGFileUploadAllowed: z.literal(false),
    imgUploadSizeAndTypes: z.array(
      z.object({
        fileTypes: z.array(z.string()),
        maxUploadSize: z.number().meta({ description: "Megabytes" }),
      }),
    ),
    fileUploadSizeAndTypes: z.array(z.never()),
  })
  .meta({ id: "UploadsConfig" });

/** What the embed widget reads for a public chatflow (lib/services/public-chatbot.ts PublicChatbotConfig). */
export const publicChatbotConfigResponseSchema = z
  .looseObject({
    chatflowId: z.string(),
    title: z.string(),
    welcomeMessage: z.string(),
    starterPrompts: z
      .record(z.string(), z.object({ prompt: z.string() }))
      .meta({ description: 'Flowise\'s shape: `{"0": {prompt}, …}`' }),
    inputPlaceholder: z.string(),
    theme: widgetThemeSchema.meta({ description: "The saved theme's known keys, each valid (others are left out)" }),
    uploads: uploadsConfigResponseSchema,
    chatFeedback: z.object({ status: z.boolean() }).meta({ description: "Flowise's thumbs under answers" }),
    leads: leadsConfigSchema.optional().meta({ description: "The lead form, when the chatflow asks for leads" }),
    originAllowed: z
      .boolean()
      .nullable()
      .meta({ description: "Whether the requesting page's origin may chat (null: no browser page)" }),
    /** Whether visitors see the tools answers used (withheld from anonymous callers when false). */
    showToolCalls: z.boolean(),
  })
  .meta({ id: "PublicChatbotConfig" });

const serverMode = z.enum(["embedded", "queue"]);

/** GET /api/v1/health: the process answers (no dependency asked). */
export const livenessResponseSchema = z
  .object({
    status: z.literal("ok"),
    mode: serverMode,
    uptimeSec: z.number().int().meta({ description: "Seconds since this process started" }),
  })
  .meta({ id: "Liveness" });

/** One readiness check (lib/services/health.ts CheckResult). */
const readinessCheck = z
  .object({
    ok: z.boolean(),
    ms: z.number().int().meta({ description: "How long the check took" }),
    error: z.string().optional().meta({ description: "What failed, addresses as host:port only" }),
    count: z.number().int().optional().meta({ description: "workers: how many heartbeats were seen recently" }),
  })
  .meta({ id: "ReadinessCheck" });

const readinessChecks = z
  .record(z.string(), readinessCheck)
  .meta({ description: "`database` always; in queue mode also `redis` and `workers`" });

/** GET /api/v1/health/ready, 200: every check passed. */
export const readyResponseSchema = z
  .object({ status: z.literal("ready"), mode: serverMode, checks: readinessChecks })
  .meta({ id: "Ready" });

/**
 * GET /api/v1/health/ready, 503: the one error answer that is more than the error shape. It carries
 * the checks beside `error` (code `not_ready`, the message naming each failing check).
 */
export const notReadyResponseSchema = z
  .object({
    status: z.literal("unavailable"),
    mode: serverMode,
    checks: readinessChecks,
    error: errorResponseSchema.shape.error,
  })
  .meta({ id: "NotReady" });

/** GET /api/v1/admin/queue (lib/services/queue-view.ts QueueView). */
export const queueViewResponseSchema = z
  .object({
    mode: serverMode,
    queues: z.array(
      z.object({
        name: z.string(),
        waiting: z.number().int(),
        active: z.number().int(),
        delayed: z.number().int(),
        failed: z.number().int(),
        completed: z.number().int(),
      }),
    ),
    active: z
      .array(
        z.object({
          id: z.string(),
          queue: z.string(),
          name: z.string(),
          chatflowId: z.string().optional(),
          requestId: z.string().optional(),
          attempt: z.number().int().meta({ description: "1 for the first try" }),
          startedAt: isoDate.nullable(),
        }),
      )
      .meta({ description: "Running jobs (queue mode; at most 100 per queue)" }),
    workers: z
      .array(
        z.object({
          workerId: z.string(),
          host: z.string(),
          pid: z.number().int(),
          concurrency: z.number().int(),
          queues: z.array(z.string()),
          startedAt: isoDate,
          activeJobs: z.number().int(),
          seenAt: isoDate,
        }),
      )
      .meta({ description: "Worker heartbeats (queue mode)" }),
  })
  .meta({ id: "QueueView" });

/** Something the builder has to do or know after a Flowise import (lib/flowise/types.ts ImportWarning). */
const importWarning = z.object({
  nodeId: z.string(),
  label: z.string(),
  kind: z.enum(["credential", "approximated"]),
  input: z.string().optional(),
  message: z.string(),
});

/** POST /api/v1/chatflows/import, 201: the new chatflow with the import's warnings. */
export const importedChatflowResponseSchema = chatflowResponseSchema
  .extend({ warnings: z.array(importWarning) })
  .meta({ id: "ImportedChatflow" });

/** POST /api/v1/chatflows/import, 400 `import_unmapped`: what cannot be imported (nothing was saved). */
export const importUnmappedResponseSchema = z
  .object({
    error: z.object({
      code: z.literal("import_unmapped"),
      message: z.string(),
      details: z.object({
        unmappedNodes: z.array(
          z.object({ nodeId: z.string(), label: z.string(), flowiseType: z.string(), reason: z.string() }),
        ),
        droppedInputs: z.array(
          z.object({ nodeId: z.string(), label: z.string(), input: z.string(), reason: z.string() }),
        ),
      }),
    }),
  })
  .meta({ id: "ImportUnmapped" });

/** A rating of an answer, in Flowise's shape (common/schemas/feedback.ts FeedbackRecord). */
export const feedbackResponseSchema = z
  .object({
    id: z.string(),
    chatflowid: z.string(),
    chatId: z.string(),
    messageId: z.string(),
    rating: z.enum(FEEDBACK_RATINGS),
    content: z.string(),
    createdDate: isoDate,
  })
  .meta({ id: "Feedback" });

/** A lead left in the widget's form, in Flowise's shape (common/schemas/feedback.ts LeadRecord). */
export const leadResponseSchema = z
  .object({
    id: z.string(),
    chatflowid: z.string(),
    chatId: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    createdDate: isoDate,
  })
  .meta({ id: "Lead" });

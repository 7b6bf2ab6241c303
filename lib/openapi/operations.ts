import { z, type ZodType } from "zod";
import {
  adminsOnly,
  domainUsers,
  importChatflows,
  listCredentialsPolicy,
  manageChatflows,
  manageCredentials,
  manageKeys,
  messageAdmins,
  publishChatflow,
  readChatflowVersions,
  queueViewers,
  readNodes,
  runChatflow,
  testChatflows,
  upsertChatflow,
  type AuthPolicy,
} from "@/common/access/permissions";
import { idParams } from "../http/route";
import { createApiKeySchema } from "@/common/schemas/api-key";
import {
  deleteChatMessagesQuery,
  listChatMessagesQuery,
  listSessionsQuery,
  chatMessageRecordSchema,
} from "@/common/schemas/chat-message";
import { chatflowResponseSchema, createChatflowSchema, updateChatflowSchema } from "@/common/schemas/chatflow";
import {
  listTestRunsQuery,
  startTestRunBodySchema,
  startTestRunResponseSchema,
  testCaseBodySchema,
  testCaseParams,
  testCaseSchema,
  testRunParams,
  testRunSchema,
  testRunSummarySchema,
} from "@/common/schemas/chatflow-tests";
import { createCredentialSchema, updateCredentialSchema } from "@/common/schemas/credential";
import {
  createFeedbackSchema,
  createLeadSchema,
  listFeedbackQuery,
  listLeadsQuery,
  updateFeedbackSchema,
} from "@/common/schemas/feedback";
import { addDomainsBody, analyzeDomainsBody, listDomainsQuery } from "@/common/schemas/domain";
import { flowiseImportSchema } from "@/common/schemas/flowise-import";
import { storeNodeParams } from "@/common/schemas/graph";
import { predictionBodySchema, predictionQuerySchema } from "@/common/schemas/prediction";
import {
  publishResponseSchema,
  publishVersionSchema,
  restoreVersionSchema,
  versionDetailResponseSchema,
  versionDiffQuery,
  versionDiffResponseSchema,
  versionListResponseSchema,
  versionParams,
} from "@/common/schemas/chatflow-version";
import { predictionResponseSchema } from "@/common/schemas/prediction-stream";
import * as r from "@/common/schemas/responses";
import { getUploadFileQuery } from "@/common/schemas/upload-file";
import { upsertJsonBodySchema } from "@/common/schemas/upsert";
import { createUserSchema, setupAdminSchema, updateUserSchema } from "@/common/schemas/user";

/**
 * Every operation of the HTTP API, documented: the OpenAPI document (./document.ts), the README's
 * API table (scripts/api-table.ts) and the studio's API reference are built from this list.
 *
 * It names the very objects the route files use — the policy (from common/access/permissions.ts) and
 * the params/query/body schemas — and tests/integration/openapi-contract.test.ts checks that, route
 * file by route file: a route (or method) missing here, or a schema or policy differing from the
 * route's, fails. Adding a route: add its entry here (README "Adding a route").
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export type ResponseSpec = {
  description: string;
  /** The JSON body; omit for an empty answer. */
  schema?: ZodType;
  /** Response headers clients read (documented as strings). */
  headers?: Record<string, string>;
  /** Also answers Server-Sent Events with this description (prediction with `streaming: true`). */
  eventStream?: string;
  /** Answers file bytes of these media types (ranges like `image/*` allowed) instead of JSON. */
  binary?: string[];
};

export type Operation = {
  method: HttpMethod;
  /** OpenAPI path: `{id}` where the route folder says `[id]`. */
  path: string;
  /** The route file serving it, relative to the repository root. */
  file: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * Who may call: the route's own policy object, or `"public"` for routes that take no
   * credentials at all (ping, this document). `null` policies cannot exist: every route says.
   */
  auth: AuthPolicy | "public";
  /** What the README table adds after the callers (scoping, admin-only fields…). */
  callersNote?: string;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** The multipart/form-data alternative of the body (uploads). */
  multipart?: ZodType;
  /** Successful answers by status. */
  responses: Record<number, ResponseSpec>;
  /** Error statuses beyond those worked out from the spec (400 input, 401/403 auth, 404 ids, 413/415 bodies). */
  errors?: number[];
  /**
   * Error answers whose body says more than the plain error shape, by status (documented instead
   * of it; the status is added to the errors). The schema still carries the error shape: it is
   * `errorResponseSchema` among alternatives, or an object whose `error` is the error shape's.
   */
  errorBodies?: Record<number, ResponseSpec>;
  /** Answers a bad Basic password too often with 429 (sign-in limit), or rate-limits callers. */
  rateLimited?: boolean;
};

const upsertForm = z
  .looseObject({
    files: z.array(z.string().meta({ format: "binary" })).optional(),
    stopNodeId: z.string().optional(),
    returnSourceDocuments: z.enum(["true", "false"]).optional(),
  })
  .meta({ description: "Files in `files`; other fields are text (overrides as `overrideConfig[...]`)." });

/**
 * Flowise's multipart form of POST /api/v1/prediction/{id} (read by lib/services/prediction-input.ts
 * fromMultipartForm): files in `files`, JSON values as JSON text; other text fields are overrides.
 */
const predictionForm = z
  .looseObject({
    question: z.string().optional(),
    files: z
      .array(z.string().meta({ format: "binary" }))
      .optional()
      .meta({ description: "Images or audio, each at most UPLOAD_MAX_BYTES, at most UPLOAD_MAX_FILES" }),
    overrideConfig: z.string().optional().meta({ description: "A JSON object, as text" }),
    history: z
      .string()
      .optional()
      .meta({ description: "A JSON array of `{role, content}` (or `{type, message}`), as text" }),
    uploads: z
      .string()
      .optional()
      .meta({ description: "A JSON array of uploads as in the JSON body, as text; form files come after them" }),
    chatId: z.string().optional(),
    streaming: z.enum(["true", "false"]).optional(),
  })
  .meta({
    description:
      "Files in `files`; `overrideConfig`, `history`, `uploads` are JSON text; any other text field is an override (as `overrideConfig[field]`).",
  });

const UPSTREAM = [502, 503, 504];

export const OPERATIONS: Operation[] = [
  {
    method: "get",
    path: "/api/v1/ping",
    file: "app/api/v1/ping/route.ts",
    summary: "Health check",
    description: "Answers without touching the database.",
    tag: "Health",
    auth: "public",
    responses: { 200: { description: "The server is up", schema: r.pingResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    file: "app/api/v1/openapi.json/route.ts",
    summary: "This OpenAPI document",
    tag: "Health",
    auth: "public",
    responses: {
      200: { description: "The OpenAPI 3.1 document of every route", schema: z.record(z.string(), z.unknown()) },
    },
  },
  {
    method: "get",
    path: "/api/v1/health",
    file: "app/api/v1/health/route.ts",
    summary: "Liveness: the process answers",
    description: "Asks no dependency (load balancers call it often).",
    tag: "Health",
    auth: "public",
    responses: { 200: { description: "Alive, with the mode and uptime", schema: r.livenessResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/health/ready",
    file: "app/api/v1/health/ready/route.ts",
    summary: "Readiness: the database, and in queue mode Redis and a worker, answer",
    tag: "Health",
    auth: "public",
    responses: { 200: { description: "Every check passed", schema: r.readyResponseSchema } },
    errorBodies: {
      503: {
        description:
          "Not ready (Retry-After): the checks, and the error `not_ready` naming each failing one (addresses as host:port only)",
        schema: r.notReadyResponseSchema,
        headers: { "Retry-After": "Seconds to wait before asking again" },
      },
    },
  },
  {
    method: "get",
    path: "/api/v1/admin/queue",
    file: "app/api/v1/admin/queue/route.ts",
    summary: "Queue depths, running jobs and workers",
    description:
      "Queue mode reads the BullMQ queues and worker heartbeats (503 naming Redis when it is unreachable); embedded mode the in-process queues' counts.",
    tag: "Health",
    auth: queueViewers,
    responses: { 200: { description: "The queues now", schema: r.queueViewResponseSchema } },
    errors: [503],
  },
  {
    method: "get",
    path: "/api/v1/setup",
    file: "app/api/v1/setup/route.ts",
    summary: "Whether the one-time setup is open",
    tag: "Users",
    auth: { anonymous: true, session: true },
    responses: { 200: { description: "Setup status", schema: r.setupStatusResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/setup",
    file: "app/api/v1/setup/route.ts",
    summary: "Create the first admin",
    tag: "Users",
    auth: { anonymous: true },
    callersNote: "until the first user exists; 409 after",
    body: setupAdminSchema,
    responses: { 201: { description: "The first admin", schema: r.userResponseSchema } },
    errors: [409],
    rateLimited: true,
  },
  {
    method: "get",
    path: "/api/v1/chatflows",
    file: "app/api/v1/chatflows/route.ts",
    summary: "List chatflows",
    tag: "Chatflows",
    auth: manageChatflows,
    callersNote: "builders and their keys: own chatflows only",
    responses: {
      200: {
        description: "Chatflows the caller may see (without graphs)",
        schema: z.array(r.chatflowSummaryResponseSchema),
      },
    },
  },
  {
    method: "post",
    path: "/api/v1/chatflows",
    file: "app/api/v1/chatflows/route.ts",
    summary: "Create a chatflow",
    tag: "Chatflows",
    auth: manageChatflows,
    body: createChatflowSchema,
    responses: { 201: { description: "The new chatflow", schema: chatflowResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/chatflows/import",
    file: "app/api/v1/chatflows/import/route.ts",
    summary: "Import a Flowise chatflow as a new chatflow",
    description:
      "A Flowise export (`{nodes, edges}`) or a Flowise API record (`{name, flowData}`). Anything that cannot be mapped refuses the whole import (400 `import_unmapped`, nothing saved).",
    tag: "Chatflows",
    auth: importChatflows,
    body: flowiseImportSchema,
    responses: {
      201: {
        description: "The new chatflow, with `warnings` (credentials to connect, settings approximated)",
        schema: r.importedChatflowResponseSchema,
      },
    },
    errorBodies: {
      400: {
        description:
          "Bad input (names the field), or `import_unmapped`: `error.details` lists `unmappedNodes` and `droppedInputs`; nothing was saved",
        schema: z.union([r.errorResponseSchema, r.importUnmappedResponseSchema]),
      },
    },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}",
    file: "app/api/v1/chatflows/[id]/route.ts",
    summary: "Read a chatflow",
    tag: "Chatflows",
    auth: manageChatflows,
    params: idParams,
    responses: { 200: { description: "The chatflow", schema: chatflowResponseSchema } },
  },
  {
    method: "put",
    path: "/api/v1/chatflows/{id}",
    file: "app/api/v1/chatflows/[id]/route.ts",
    summary: "Update a chatflow",
    description: "Any subset of fields; `expectedVersion` turns on conflict detection (409).",
    tag: "Chatflows",
    auth: manageChatflows,
    callersNote: "`ownerId`: admins only",
    params: idParams,
    body: updateChatflowSchema,
    responses: { 200: { description: "The updated chatflow", schema: chatflowResponseSchema } },
    errors: [409, 422],
  },
  {
    method: "delete",
    path: "/api/v1/chatflows/{id}",
    file: "app/api/v1/chatflows/[id]/route.ts",
    summary: "Delete a chatflow with its messages and files",
    tag: "Chatflows",
    auth: manageChatflows,
    params: idParams,
    responses: { 200: { description: "Deleted", schema: r.deletedResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/validate",
    file: "app/api/v1/chatflows/[id]/validate/route.ts",
    summary: "Check a saved graph without running it",
    tag: "Chatflows",
    auth: manageChatflows,
    params: idParams,
    responses: { 200: { description: "The graph's problems, node by node", schema: r.graphCheckResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/tests",
    file: "app/api/v1/chatflows/[id]/tests/route.ts",
    summary: "The chatflow's test cases",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: idParams,
    responses: { 200: { description: "Cases, oldest first", schema: z.array(testCaseSchema) } },
  },
  {
    method: "post",
    path: "/api/v1/chatflows/{id}/tests",
    file: "app/api/v1/chatflows/[id]/tests/route.ts",
    summary: "Add a test case",
    description:
      "A question (optional history, overrideConfig, uploads) and expectations: `status`, `answerContains`, `answerNotContains`, `answerMatches` (a regular expression of at most 500 characters, flags `imsu`; a bad one is a 400), `answerJsonSchema`, `toolCalled` (with `input` fields), `toolNotCalled`, `sourceContains`, `latencyBelow` (reported; fails the case only with `gating: true`). At most 200 cases per chatflow (409 past it).",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: idParams,
    body: testCaseBodySchema,
    responses: { 201: { description: "The case", schema: testCaseSchema } },
    errors: [409],
  },
  {
    method: "put",
    path: "/api/v1/chatflows/{id}/tests/{caseId}",
    file: "app/api/v1/chatflows/[id]/tests/[caseId]/route.ts",
    summary: "Replace a test case",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: testCaseParams,
    body: testCaseBodySchema,
    responses: { 200: { description: "The case", schema: testCaseSchema } },
  },
  {
    method: "delete",
    path: "/api/v1/chatflows/{id}/tests/{caseId}",
    file: "app/api/v1/chatflows/[id]/tests/[caseId]/route.ts",
    summary: "Delete a test case",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: testCaseParams,
    responses: { 200: { description: "Deleted", schema: r.deletedResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/chatflows/{id}/tests/run",
    file: "app/api/v1/chatflows/[id]/tests/run/route.ts",
    summary: "Run every test case against a version",
    description:
      "`version` defaults to the draft (the latest). Runs in the background, each case in a session of its own that is never stored as a conversation; poll the run for results.",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: idParams,
    body: startTestRunBodySchema,
    responses: { 202: { description: "The run was queued", schema: startTestRunResponseSchema } },
    errors: [503],
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/tests/runs",
    file: "app/api/v1/chatflows/[id]/tests/runs/route.ts",
    summary: "The newest 50 test runs (of one version with `version`)",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: idParams,
    query: listTestRunsQuery,
    responses: { 200: { description: "Runs, newest first, without results", schema: z.array(testRunSummarySchema) } },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/tests/runs/{runId}",
    file: "app/api/v1/chatflows/[id]/tests/runs/[runId]/route.ts",
    summary: "A test run with its results",
    description:
      "Each result: the case, pass/fail per expectation with expected and actual, the answer, tool calls, source documents, latency and status.",
    tag: "Chatflow tests",
    auth: testChatflows,
    params: testRunParams,
    responses: { 200: { description: "The run", schema: testRunSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/versions",
    file: "app/api/v1/chatflows/[id]/versions/route.ts",
    summary: "List a chatflow's versions, newest first",
    description:
      "Every save of the graph or run settings (override allow-list, chatbot config, speech-to-text) is a version. `published` marks the one the API runs, `draft` the latest.",
    tag: "Versions",
    auth: readChatflowVersions,
    params: idParams,
    responses: { 200: { description: "The versions", schema: versionListResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/versions/{n}",
    file: "app/api/v1/chatflows/[id]/versions/[n]/route.ts",
    summary: "Read one version of a chatflow (graph and run settings)",
    tag: "Versions",
    auth: readChatflowVersions,
    params: versionParams,
    responses: { 200: { description: "The version", schema: versionDetailResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatflows/{id}/versions/{n}/diff",
    file: "app/api/v1/chatflows/[id]/versions/[n]/diff/route.ts",
    summary: "What changed from version `against` (default: n − 1) to version n",
    description:
      "Nodes and edges added and removed, each changed input (old → new) and run setting. Credentials appear by name only.",
    tag: "Versions",
    auth: readChatflowVersions,
    params: versionParams,
    query: versionDiffQuery,
    responses: { 200: { description: "The difference", schema: versionDiffResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/chatflows/{id}/versions/{n}/restore",
    file: "app/api/v1/chatflows/[id]/versions/[n]/restore/route.ts",
    summary: "Restore a version as a new version (the new draft)",
    tag: "Versions",
    auth: manageChatflows,
    params: versionParams,
    body: restoreVersionSchema,
    responses: { 201: { description: "The chatflow at its new version", schema: chatflowResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/chatflows/{id}/publish",
    file: "app/api/v1/chatflows/[id]/publish/route.ts",
    summary: "Publish a version",
    description:
      "The prediction API, vector upsert, the widget and the public pages run the published version. 409 when the chatflow requires passing tests and the version's fail or have not run.",
    tag: "Versions",
    auth: publishChatflow,
    params: idParams,
    body: publishVersionSchema,
    responses: { 200: { description: "The published version", schema: publishResponseSchema } },
    errors: [409],
  },
  {
    method: "get",
    path: "/api/v1/chatflows-streaming/{id}",
    file: "app/api/v1/chatflows-streaming/[id]/route.ts",
    summary: "Whether a chatflow can stream (Flowise clients ask before streaming)",
    tag: "Prediction",
    auth: runChatflow,
    callersNote: "anonymous callers get the same answer for any id",
    params: idParams,
    responses: { 200: { description: "Always true here", schema: r.streamingCheckResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/prediction/{id}",
    file: "app/api/v1/prediction/[id]/route.ts",
    summary: "Run a chatflow",
    description:
      "Flowise's prediction body. With `streaming: true` the answer is Server-Sent Events (`start`, `token`…, `usedTools`, `sourceDocuments`, `metadata`, `error`, `end`). A flow that is not valid answers 422 `invalid_graph` with the problems in `error.details`. Runs the chatflow's published version (never published: the latest); `?version=N` or `?version=draft` pins one (the chatflow's managers only: a studio session, admin Basic, a key with `chatflows`; else 403). The answering version is in `X-Chatflow-Version` and `chatflowVersion`.",
    tag: "Prediction",
    auth: runChatflow,
    callersNote: "keys in scope; anyone: public chatflows only; `?version=`: managers only",
    params: idParams,
    query: predictionQuerySchema,
    body: predictionBodySchema,
    multipart: predictionForm,
    responses: {
      200: {
        description: "The answer",
        schema: predictionResponseSchema,
        headers: { "X-Chatflow-Version": "The chatflow version that answered" },
        eventStream: 'With `streaming: true`: `data: {"event": …, "data": …}` lines, `end` last',
      },
    },
    errors: [422, ...UPSTREAM],
    rateLimited: true,
  },
  {
    method: "get",
    path: "/api/v1/public-chatbotConfig/{id}",
    file: "app/api/v1/public-chatbotConfig/[id]/route.ts",
    summary: "The embed widget's settings",
    tag: "Prediction",
    auth: runChatflow,
    callersNote: "public chatflows only for anonymous callers; readable from any origin",
    params: idParams,
    responses: {
      200: { description: "Title, welcome, prompts, theme, features", schema: r.publicChatbotConfigResponseSchema },
    },
  },
  {
    method: "get",
    path: "/api/v1/chatflows-uploads/{id}",
    file: "app/api/v1/chatflows-uploads/[id]/route.ts",
    summary: "Which uploads a chatflow takes (Flowise's uploads check)",
    tag: "Prediction",
    auth: runChatflow,
    callersNote: "public chatflows only for anonymous callers",
    params: idParams,
    responses: {
      200: { description: "Ours (images, audio, limits) and Flowise's fields", schema: r.uploadsConfigResponseSchema },
    },
  },
  {
    method: "get",
    path: "/api/v1/get-upload-file",
    file: "app/api/v1/get-upload-file/route.ts",
    summary: "A chat's uploaded file (Flowise; the widget shows uploads with it)",
    description:
      "Served with its checked media type (`nosniff`, a sandboxing CSP); anything but an image is a download. Unknown chatflow, chat or name: 404.",
    tag: "Prediction",
    auth: runChatflow,
    callersNote: "public chatflows only for anonymous callers",
    query: getUploadFileQuery,
    responses: {
      200: {
        description: "The file's bytes",
        binary: ["image/*", "audio/*"],
        headers: { "Content-Disposition": "`inline` for images, else `attachment`, with the file name" },
      },
    },
    errors: [404],
  },
  {
    method: "post",
    path: "/api/v1/feedback",
    file: "app/api/v1/feedback/route.ts",
    summary: "Rate an answer (Flowise; the chatflow in `chatflowid`)",
    description: "One rating per message: a second one replaces the first. The chatflow must have feedback on.",
    tag: "Feedback",
    auth: runChatflow,
    callersNote: "keys in scope; anyone: public chatflows with feedback on",
    body: createFeedbackSchema,
    responses: { 200: { description: "The stored feedback", schema: r.feedbackResponseSchema } },
    errors: [404],
    rateLimited: true,
  },
  {
    method: "post",
    path: "/api/v1/feedback/{id}",
    file: "app/api/v1/feedback/[id]/route.ts",
    summary: "Rate an answer of the chatflow `{id}` (what flowise-embed calls)",
    description: "One rating per message: a second one replaces the first. The chatflow must have feedback on.",
    tag: "Feedback",
    auth: runChatflow,
    callersNote: "keys in scope; anyone: public chatflows with feedback on",
    params: idParams,
    body: createFeedbackSchema,
    responses: { 200: { description: "The stored feedback", schema: r.feedbackResponseSchema } },
    rateLimited: true,
  },
  {
    method: "put",
    path: "/api/v1/feedback/{id}",
    file: "app/api/v1/feedback/[id]/route.ts",
    summary: "Change the feedback `{id}`: the comment typed after a thumb, or the rating",
    tag: "Feedback",
    auth: runChatflow,
    callersNote: "as for rating; `{id}` is the feedback's",
    params: idParams,
    body: updateFeedbackSchema,
    responses: { 200: { description: "The feedback", schema: r.feedbackResponseSchema } },
    rateLimited: true,
  },
  {
    method: "get",
    path: "/api/v1/feedback/{id}",
    file: "app/api/v1/feedback/[id]/route.ts",
    summary: "A chatflow's feedback (Flowise's filters)",
    tag: "Feedback",
    auth: messageAdmins,
    params: idParams,
    query: listFeedbackQuery,
    responses: {
      200: { description: "Feedback, oldest first unless sortOrder=DESC", schema: z.array(r.feedbackResponseSchema) },
    },
  },
  {
    method: "post",
    path: "/api/v1/leads",
    file: "app/api/v1/leads/route.ts",
    summary: "Leave a lead in the widget's form (Flowise)",
    description: "Only for chatflows that ask for leads (`chatbotConfig.leads.status`); name, email or phone.",
    tag: "Feedback",
    auth: runChatflow,
    callersNote: "keys in scope; anyone: public chatflows asking for leads",
    body: createLeadSchema,
    responses: { 200: { description: "The stored lead", schema: r.leadResponseSchema } },
    errors: [404],
    rateLimited: true,
  },
  {
    method: "get",
    path: "/api/v1/leads/{id}",
    file: "app/api/v1/leads/[id]/route.ts",
    summary: "The leads left in a chatflow's widget",
    tag: "Feedback",
    auth: messageAdmins,
    params: idParams,
    query: listLeadsQuery,
    responses: { 200: { description: "Leads", schema: z.array(r.leadResponseSchema) } },
  },
  {
    method: "post",
    path: "/api/v1/vector/upsert/{id}",
    file: "app/api/v1/vector/upsert/[id]/route.ts",
    summary: "Load documents into a chatflow's stores",
    description:
      "Loads into the stores of the published version (never published: the latest); `?version=N` or `draft` picks another (the chatflow's managers with `chatflows`, or a studio session).",
    tag: "Vector stores",
    auth: upsertChatflow,
    callersNote: "keys in scope",
    params: idParams,
    query: predictionQuerySchema,
    body: upsertJsonBodySchema,
    multipart: upsertForm,
    responses: {
      200: { description: "What each store added, updated, skipped, deleted", schema: r.upsertResponseSchema },
    },
    errors: [422, ...UPSTREAM],
  },
  {
    method: "get",
    path: "/api/v1/vector/stores/{id}",
    file: "app/api/v1/vector/stores/[id]/route.ts",
    summary: "A chatflow's store nodes with their chunk counts",
    tag: "Vector stores",
    auth: upsertChatflow,
    params: idParams,
    responses: { 200: { description: "Store nodes", schema: z.array(r.vectorStoreResponseSchema) } },
  },
  {
    method: "delete",
    path: "/api/v1/vector/stores/{id}/{nodeId}",
    file: "app/api/v1/vector/stores/[id]/[nodeId]/route.ts",
    summary: "Clear one store node",
    tag: "Vector stores",
    auth: upsertChatflow,
    params: storeNodeParams,
    responses: { 200: { description: "How many chunks were deleted", schema: r.clearedStoreResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatmessage/{id}",
    file: "app/api/v1/chatmessage/[id]/route.ts",
    summary: "A chatflow's messages",
    description: "A JSON array; the X-Total-Count header holds the number of all matches.",
    tag: "Messages",
    auth: messageAdmins,
    params: idParams,
    query: listChatMessagesQuery,
    responses: {
      200: {
        description: "Matching messages",
        schema: z.array(chatMessageRecordSchema),
        headers: { "X-Total-Count": "The number of all matching messages (the array holds one page)" },
      },
    },
  },
  {
    method: "delete",
    path: "/api/v1/chatmessage/{id}",
    file: "app/api/v1/chatmessage/[id]/route.ts",
    summary: "Delete a chatflow's matching messages and their uploads",
    tag: "Messages",
    auth: messageAdmins,
    params: idParams,
    query: deleteChatMessagesQuery,
    responses: { 200: { description: "How many were deleted", schema: r.deletedCountResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/chatmessage/{id}/sessions",
    file: "app/api/v1/chatmessage/[id]/sessions/route.ts",
    summary: "A chatflow's conversations",
    tag: "Messages",
    auth: messageAdmins,
    params: idParams,
    query: listSessionsQuery,
    responses: { 200: { description: "Sessions, paged", schema: r.sessionsResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/credentials",
    file: "app/api/v1/credentials/route.ts",
    summary: "List credentials (never their values)",
    tag: "Credentials",
    auth: listCredentialsPolicy,
    callersNote: "builders: own ones plus those shared with all builders",
    responses: { 200: { description: "Credentials without values", schema: z.array(r.credentialResponseSchema) } },
  },
  {
    method: "post",
    path: "/api/v1/credentials",
    file: "app/api/v1/credentials/route.ts",
    summary: "Store a credential (encrypted)",
    tag: "Credentials",
    auth: manageCredentials,
    body: createCredentialSchema,
    responses: { 201: { description: "The credential, without values", schema: r.credentialResponseSchema } },
  },
  {
    method: "put",
    path: "/api/v1/credentials/{id}",
    file: "app/api/v1/credentials/[id]/route.ts",
    summary: "Rename, replace values, share or transfer a credential",
    tag: "Credentials",
    auth: manageCredentials,
    callersNote: "`sharedWithBuilders`, `ownerId`: admins only",
    params: idParams,
    body: updateCredentialSchema,
    responses: { 200: { description: "The credential, without values", schema: r.credentialResponseSchema } },
  },
  {
    method: "delete",
    path: "/api/v1/credentials/{id}",
    file: "app/api/v1/credentials/[id]/route.ts",
    summary: "Delete a credential",
    tag: "Credentials",
    auth: manageCredentials,
    params: idParams,
    responses: { 200: { description: "Deleted", schema: r.deletedResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/apikey",
    file: "app/api/v1/apikey/route.ts",
    summary: "List API keys",
    tag: "API keys",
    auth: manageKeys,
    callersNote: "builders: own keys",
    responses: { 200: { description: "Keys, never their secrets", schema: z.array(r.apiKeyResponseSchema) } },
  },
  {
    method: "post",
    path: "/api/v1/apikey",
    file: "app/api/v1/apikey/route.ts",
    summary: "Create an API key (shown once)",
    tag: "API keys",
    auth: manageKeys,
    callersNote: "builders never get `messages`",
    body: createApiKeySchema,
    responses: { 201: { description: "The key, with its secret", schema: r.createdApiKeyResponseSchema } },
  },
  {
    method: "delete",
    path: "/api/v1/apikey/{id}",
    file: "app/api/v1/apikey/[id]/route.ts",
    summary: "Revoke an API key",
    tag: "API keys",
    auth: manageKeys,
    params: idParams,
    responses: { 200: { description: "The revoked key", schema: r.apiKeyResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/users",
    file: "app/api/v1/users/route.ts",
    summary: "List users",
    tag: "Users",
    auth: adminsOnly,
    responses: { 200: { description: "Users without password hashes", schema: z.array(r.userResponseSchema) } },
  },
  {
    method: "post",
    path: "/api/v1/users",
    file: "app/api/v1/users/route.ts",
    summary: "Add a user",
    tag: "Users",
    auth: adminsOnly,
    body: createUserSchema,
    responses: { 201: { description: "The new user", schema: r.userResponseSchema } },
    errors: [409],
  },
  {
    method: "put",
    path: "/api/v1/users/{id}",
    file: "app/api/v1/users/[id]/route.ts",
    summary: "Change a user's role",
    tag: "Users",
    auth: adminsOnly,
    params: idParams,
    body: updateUserSchema,
    responses: { 200: { description: "The user", schema: r.userResponseSchema } },
  },
  {
    method: "delete",
    path: "/api/v1/users/{id}",
    file: "app/api/v1/users/[id]/route.ts",
    summary: "Remove a user (their chatflows and credentials go to the acting admin)",
    tag: "Users",
    auth: adminsOnly,
    params: idParams,
    responses: { 200: { description: "Deleted", schema: r.deletedResponseSchema } },
  },
  {
    method: "get",
    path: "/api/v1/nodes",
    file: "app/api/v1/nodes/route.ts",
    summary: "The node registry (palette, forms, handles)",
    tag: "Chatflows",
    auth: readNodes,
    responses: { 200: { description: "Node definitions", schema: z.array(r.nodeDefinitionResponseSchema) } },
  },
  {
    method: "get",
    path: "/api/v1/domains",
    file: "app/api/v1/domains/route.ts",
    summary: "List domains (filters, search, sort, paging); also at GET /domains",
    tag: "Domains",
    auth: domainUsers,
    query: listDomainsQuery,
    responses: { 200: { description: "A page of domains", schema: r.domainListResponseSchema } },
  },
  {
    method: "get",
    path: "/domains",
    file: "app/domains/route.ts",
    summary: "List domains (the unversioned path of GET /api/v1/domains)",
    tag: "Domains",
    auth: domainUsers,
    query: listDomainsQuery,
    responses: { 200: { description: "A page of domains", schema: r.domainListResponseSchema } },
  },
  {
    method: "post",
    path: "/api/v1/domains",
    file: "app/api/v1/domains/route.ts",
    summary: "Add domains: `{ name }` or `{ names: [...] }`",
    tag: "Domains",
    auth: domainUsers,
    body: addDomainsBody,
    responses: {
      200: {
        description: "What was added, known or invalid (invalid names are reported with why, never stored)",
        schema: r.addDomainsResponseSchema,
      },
    },
  },
  {
    method: "post",
    path: "/api/v1/domains/analyze",
    file: "app/api/v1/domains/analyze/route.ts",
    summary: "Queue an analysis run of a chatflow over chosen domains",
    tag: "Domains",
    auth: domainUsers,
    callersNote: "also needs `predict` on that chatflow",
    body: analyzeDomainsBody,
    responses: {
      200: { description: "Nothing to analyse (`run: null`)", schema: r.startAnalysisResponseSchema },
      202: { description: "The queued run", schema: r.startAnalysisResponseSchema },
    },
  },
  {
    method: "get",
    path: "/api/v1/domains/runs",
    file: "app/api/v1/domains/runs/route.ts",
    summary: "The 20 most recent analysis runs",
    tag: "Domains",
    auth: domainUsers,
    responses: { 200: { description: "Runs with progress", schema: z.array(r.analysisRunResponseSchema) } },
  },
  {
    method: "get",
    path: "/api/v1/domains/runs/{id}",
    file: "app/api/v1/domains/runs/[id]/route.ts",
    summary: "Progress of one analysis run",
    tag: "Domains",
    auth: domainUsers,
    params: idParams,
    responses: { 200: { description: "The run", schema: r.analysisRunResponseSchema } },
  },
];

import type { ZodType } from "zod";

/**
 * What a route says about itself for the OpenAPI document (lib/openapi), next to its policy and
 * schemas: `route({ auth, params, body, docs: { tag, summary, description, responses } }, handler)`.
 * The document, the API table of docs/api.md and the contract tests are all made from these.
 */

/** The document's tags, each with what it groups: a route names one of them. */
export const API_TAGS = {
  Health: "Liveness, readiness, the queue view and this document: for load balancers, monitors and admins.",
  Users: "The one-time setup and the studio's users (admins only).",
  Chatflows: "Chatflows (a graph of nodes and its run settings), their import from Flowise and the node registry.",
  Versions: "Every save is a version; one is published for the API, the widget and the public pages.",
  "Chatflow tests": "Test cases of a chatflow (a question and expectations) and runs of them against a version.",
  Prediction: "Running a chatflow (Flowise's prediction API, streamed or not) and what the embed widget reads.",
  Executions: "Agentflow runs (Flowise's executions): listed with filters, read node by node, deleted.",
  Feedback: "Ratings of answers and leads left in the widget (Flowise's shapes).",
  "Vector stores": "Loading documents into a chatflow's stores, and their chunk counts.",
  Messages: "Stored conversations of a chatflow: messages and sessions.",
  Credentials: "Secrets nodes use (model keys, request headers), stored encrypted and never returned.",
  "API keys": "Keys for API callers, each with permissions and an optional chatflow scope.",
  Domains: "A list of domains and analysis runs of a chatflow over them.",
  MCP: "A flow as an MCP server: its settings and token, and the Streamable HTTP endpoint MCP clients call.",
  "Webhooks and schedules":
    "What starts a flow without a chat: a webhook URL (optionally signed) and schedules (cron in a time zone), each run recorded.",
  Variables: "Global variables agentflows read as {{$vars.name}}: a stored value, or an allowed environment variable.",
  Usage: "Tokens, cost and latency of answers per day or model, and the model prices cost is computed with.",
} as const;

export type ApiTag = keyof typeof API_TAGS;

/** One documented answer of a route. */
export type ResponseDoc = {
  description: string;
  /** The JSON body; omit for an empty answer. */
  schema?: ZodType;
  /** Response headers clients read (documented as strings). */
  headers?: Record<string, string>;
  /** Also answers Server-Sent Events (`text/event-stream`): the schema of one event's `data:` JSON. */
  events?: ZodType;
  /** Answers file bytes of these media types (ranges like `image/*` allowed) instead of JSON. */
  binary?: string[];
};

/** A route's documentation. Error statuses follow from its declaration (lib/openapi/document.ts errorStatuses). */
export type RouteDocs = {
  tag: ApiTag;
  summary: string;
  description: string;
  /** What the README table adds after the callers (scoping, admin-only fields…). */
  callersNote?: string;
  /** Successful answers by status. */
  responses: Record<number, ResponseDoc>;
  /** Error statuses beyond those worked out from the declaration (400 input, 401/403 auth, 404 ids, 408/413/415/503 bodies). */
  errors?: number[];
  /**
   * Error answers whose body says more than the plain error shape, by status (documented instead
   * of it; the status is added to the errors). The schema still carries the error shape: it is
   * `errorResponseSchema` among alternatives, or an object whose `error` is the error shape's.
   */
  errorBodies?: Record<number, ResponseDoc>;
  /** Answers 429 to callers past a rate limit. */
  rateLimited?: boolean;
  /** The multipart/form-data alternative of the JSON body, as the document shows it (route() reads it with `body.multipart`). */
  form?: ZodType;
};

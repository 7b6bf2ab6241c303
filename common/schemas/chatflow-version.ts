import { z } from "zod";
import { testRunSummarySchema } from "./chatflow-tests";

/** Largest version number (a PostgreSQL integer). */
const MAX_VERSION = 2_147_483_647;

/** A version number in a path or query: 1, 2, 3… */
const versionNumber = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "must be a version number (1, 2, …)")
  .transform(Number)
  .refine((n) => n <= MAX_VERSION, `must be at most ${MAX_VERSION}`);

/** Path params of /api/v1/chatflows/{id}/versions/{n}…. */
export const versionParams = z.object({ id: z.uuid({ error: "must be a UUID" }), n: versionNumber });

/** GET …/versions/{n}/diff?against={m}: what changed from version m (default: n − 1) to version n. */
export const versionDiffQuery = z.object({ against: versionNumber.optional() });

/** POST /api/v1/chatflows/{id}/publish. */
export const publishVersionSchema = z
  .object({ version: z.number().int().min(1).max(MAX_VERSION, `must be at most ${MAX_VERSION}`) })
  .strict();

/** POST …/versions/{n}/restore: an optional message for the new version. */
export const restoreVersionSchema = z.object({ message: z.string().trim().max(500).optional() }).strict();

const isoDate = z.iso.datetime();

/** A version as listed (newest first). */
export const versionSummarySchema = z.object({
  version: z.number().int(),
  createdAt: isoDate,
  /** Who saved it: a user's name, or "API key sy_…". */
  author: z.string(),
  authorId: z.string().nullable(),
  message: z.string(),
  /** The version the API, upsert, widget and public pages run. */
  published: z.boolean(),
  /** The latest version: the studio edits it. */
  draft: z.boolean(),
  /** The newest test run of this version (null: never tested); in the list and the publish answer. */
  lastTestRun: testRunSummarySchema.nullable().optional(),
});

export const versionListResponseSchema = z
  .object({
    version: z.number().int(),
    publishedVersion: z.number().int().nullable(),
    versions: z.array(versionSummarySchema),
    /** The cursor of the next page of versions (also in X-Next-Cursor); null on the last page or the whole list. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "ChatflowVersionList" });

export const versionDetailResponseSchema = versionSummarySchema
  .extend({
    graph: z.unknown(),
    overrideAllowList: z.array(z.string()),
    /**
     * The chatbot settings as they were when this version was saved, for the record: they are not
     * part of a version (they apply at once; a restore leaves them as they are).
     */
    chatbotConfig: z.record(z.string(), z.unknown()),
    speechToText: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "ChatflowVersion" });

const nodeRef = z.object({ id: z.string(), type: z.string(), label: z.string() });
const edgeRef = z.object({
  id: z.string(),
  source: z.string(),
  sourceHandle: z.string(),
  target: z.string(),
  targetHandle: z.string(),
});

/** GET …/diff: from version `from` (the `against`) to version `to`; credentials by name only. */
export const versionDiffResponseSchema = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    nodesAdded: z.array(nodeRef),
    nodesRemoved: z.array(nodeRef),
    edgesAdded: z.array(edgeRef),
    edgesRemoved: z.array(edgeRef),
    inputsChanged: z.array(
      z.object({
        nodeId: z.string(),
        nodeLabel: z.string(),
        input: z.string(),
        inputLabel: z.string(),
        old: z.unknown(),
        new: z.unknown(),
      }),
    ),
    settingsChanged: z.array(z.object({ setting: z.string(), old: z.unknown(), new: z.unknown() })),
  })
  .meta({ id: "ChatflowVersionDiff" });

export const publishResponseSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  publishedVersion: z.number().int(),
  /** The published version's newest test run (null: never tested). */
  testRun: testRunSummarySchema.nullable(),
});

export type VersionSummary = z.infer<typeof versionSummarySchema>;
export type VersionDetail = z.infer<typeof versionDetailResponseSchema>;
export type VersionDiff = z.infer<typeof versionDiffResponseSchema>;

import { json } from "@/lib/http/responses";
import { nextPageHeaders, PAGE_HEADER_DOCS } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { deleteExecutionsPolicy, readExecutionsPolicy } from "@/common/access/permissions";
import {
  deleteExecutionsBody,
  executionListResponseSchema,
  executionsDeletedSchema,
  listExecutionsQuery,
} from "@/common/schemas/execution";
import { deleteExecutionsFor, listExecutionsFor } from "@/lib/services/executions";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route(
  {
    auth: readExecutionsPolicy,
    query: listExecutionsQuery,
    docs: {
      tag: "Executions",
      summary: "List agentflow runs",
      description:
        "Newest first, without per-node data. Filters: `agentflowId` (or `chatflowId`), `state`/`status` in Flowise's words or ours (INPROGRESS = running, STOPPED = paused at Human Input, FINISHED = finished, ERROR = error, TIMEOUT = timeout; TERMINATED, an aborted run, is stored as error), `sessionId`, `startDate`/`endDate`. `limit` runs per page (20 by default, at most 100); the next page is `cursor` = the answer's `nextCursor` (or Flowise's `page`).",
      callersNote: "builders and their keys: runs of their own flows only",
      responses: {
        200: { description: "A page of runs", schema: executionListResponseSchema, headers: PAGE_HEADER_DOCS },
      },
    },
  },
  async ({ req, query, caller }) => {
    const page = await listExecutionsFor(caller, query);
    return json(page, 200, nextPageHeaders(req, page.nextCursor));
  },
);

export const DELETE = route(
  {
    auth: deleteExecutionsPolicy,
    body: { json: deleteExecutionsBody },
    docs: {
      tag: "Executions",
      summary: "Delete agentflow runs",
      description:
        "Flowise's bulk delete: `{ executionIds }`. All or none: a run the caller may not see is 404, a run still running 409.",
      callersNote: "builders and their keys: runs of their own flows only",
      responses: { 200: { description: "How many were deleted", schema: executionsDeletedSchema } },
      errors: [404, 409],
    },
  },
  async ({ body, caller }) => deleteExecutionsFor(body.executionIds, caller),
);

export const { POST, PUT, PATCH } = refuseOtherMethods("GET", "DELETE");

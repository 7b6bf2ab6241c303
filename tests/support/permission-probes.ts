/**
 * One probe per route and action of the permission table (common/access/permissions.ts), for the matrix
 * test: how to call the route on an object, and which actions it needs in which order (the first
 * refused one decides the answer). tests/security/permissions-matrix.test.ts checks every action of
 * the table has a probe, so a new action cannot be added without being walked.
 */
import { type CallResult, call, type RouteHandler } from "./http";
import type { Action } from "@/common/access/permissions";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as chatflowImport from "../../app/api/v1/chatflows/import/route";
import * as nodeOptions from "../../app/api/v1/nodes/[name]/options/route";
import * as validate from "../../app/api/v1/chatflows/[id]/validate/route";
import * as versionList from "../../app/api/v1/chatflows/[id]/versions/route";
import * as versionOne from "../../app/api/v1/chatflows/[id]/versions/[n]/route";
import * as versionDiff from "../../app/api/v1/chatflows/[id]/versions/[n]/diff/route";
import * as versionRestore from "../../app/api/v1/chatflows/[id]/versions/[n]/restore/route";
import * as publish from "../../app/api/v1/chatflows/[id]/publish/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as credentialById from "../../app/api/v1/credentials/[id]/route";
import * as credentialTest from "../../app/api/v1/credentials/[id]/test/route";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as apikeyById from "../../app/api/v1/apikey/[id]/route";
import * as users from "../../app/api/v1/users/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as sessions from "../../app/api/v1/chatmessage/[id]/sessions/route";
import * as domains from "../../app/api/v1/domains/route";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as openAIModels from "../../app/api/v1/openai/models/route";
import * as openAICompletions from "../../app/api/v1/openai/chat/completions/route";
import * as streaming from "../../app/api/v1/chatflows-streaming/[id]/route";
import * as publicConfig from "../../app/api/v1/public-chatbotConfig/[id]/route";
import * as stores from "../../app/api/v1/vector/stores/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import * as nodes from "../../app/api/v1/nodes/route";
import * as adminQueue from "../../app/api/v1/admin/queue/route";
import * as chatflowUploads from "../../app/api/v1/chatflows-uploads/[id]/route";
import * as feedback from "../../app/api/v1/feedback/[id]/route";
import * as leads from "../../app/api/v1/leads/[id]/route";
import * as testCases from "../../app/api/v1/chatflows/[id]/tests/route";
import * as testCaseById from "../../app/api/v1/chatflows/[id]/tests/[caseId]/route";
import * as testRun from "../../app/api/v1/chatflows/[id]/tests/run/route";
import * as testRuns from "../../app/api/v1/chatflows/[id]/tests/runs/route";
import * as variables from "../../app/api/v1/variables/route";
import * as variableById from "../../app/api/v1/variables/[id]/route";
import * as executions from "../../app/api/v1/executions/route";
import * as executionById from "../../app/api/v1/executions/[id]/route";
import * as mcpServer from "../../app/api/v1/mcp-server/[id]/route";
import * as mcpRefresh from "../../app/api/v1/mcp-server/[id]/refresh/route";
import { enableMcpServer } from "../../lib/services/mcp-servers";
import { systemCaller } from "../../dev/callers";
import * as usage from "../../app/api/v1/usage/route";
import * as usagePrices from "../../app/api/v1/usage/prices/route";
import { insertTestCases } from "../../lib/db/queries/chatflow-tests";
import { insertSchedule } from "../../lib/db/queries/triggers";
import * as webhookSettings from "../../app/api/v1/chatflows/[id]/webhook/route";
import * as schedules from "../../app/api/v1/schedules/route";
import * as scheduleById from "../../app/api/v1/schedules/[id]/route";
import { createVariable } from "../../lib/services/variables";
import * as docStores from "../../app/api/v1/document-store/store/route";
import * as docStoreById from "../../app/api/v1/document-store/store/[id]/route";
import * as docStoreUpsert from "../../app/api/v1/document-store/upsert/[id]/route";
import * as docStoreRefresh from "../../app/api/v1/document-store/refresh/[id]/route";
import * as docStorePreview from "../../app/api/v1/document-store/loader/preview/route";
import * as docStoreQuery from "../../app/api/v1/document-store/vectorstore/query/route";

export type ObjectKind = "chatflow" | "credential" | "apikey" | "execution" | "documentStore";
export type ProbeCtx = { headers: Record<string, string>; id: string; adminId: string };
export type Probe = {
  name: string;
  /** The action whose policy guards the route (who may call it at all). */
  policy: Action;
  /** Actions checked on the object, in the order the service checks them. */
  requires: Action[];
  object?: ObjectKind;
  /** Mutates or consumes the object: each call gets a fresh one. */
  fresh?: boolean;
  /** A list: allowed callers get 200, and the object is listed exactly when the caller may see it. */
  list?: boolean;
  /** Status of an allowed call. */
  ok: number;
  run(ctx: ProbeCtx): Promise<CallResult>;
};

const get = (handler: RouteHandler, ctx: ProbeCtx, path = "/api/v1/x") =>
  call(handler, { headers: ctx.headers, params: { id: ctx.id }, path });
const send = (handler: RouteHandler, method: string, ctx: ProbeCtx, body?: object) =>
  call(handler, { method, headers: ctx.headers, params: { id: ctx.id }, body });

/** A chat model node that picks a credential (saving it needs credential.use). */
export function graphUsing(credentialId: string) {
  return {
    nodes: [
      {
        id: "model_0",
        type: "chatOpenAICompatible",
        position: { x: 0, y: 0 },
        data: { inputs: { credential: credentialId } },
      },
    ],
    edges: [],
  };
}

const TEST_CASE = { name: "probe", question: "hello", expectations: [{ type: "status", value: 200 }] };

/** A case of the chatflow, written directly (the probe is about the route's caller, not about creating it). */
async function caseOf(chatflowId: string): Promise<string> {
  const [row] = await insertTestCases({ chatflowId, cases: [TEST_CASE] });
  return row!.id;
}

/** A schedule of the chatflow (off: it never ticks), written directly. */
async function scheduleOf(chatflowId: string): Promise<string> {
  const row = await insertSchedule({
    data: { chatflowId, cron: "0 0 1 1 *", input: { question: "hello" }, enabled: false },
  });
  return row.id;
}

const SCHEDULE = { cron: "0 0 1 1 *", input: { question: "hello" }, enabled: false };

/** A document store of one saved text file and a keyword store (no model called). */
export const DOCUMENT_STORE_GRAPH = {
  nodes: [
    {
      id: "txt",
      type: "textFileLoader",
      position: { x: 0, y: 0 },
      data: { inputs: { file: "Refunds take 14 days." } },
    },
    { id: "store", type: "keywordStore", position: { x: 0, y: 0 }, data: { inputs: {} } },
  ],
  edges: [
    { id: "e", source: "txt", sourceHandle: "txt:out:document", target: "store", targetHandle: "store:in:document" },
  ],
};

const DOCUMENT_STORE_PROBES: Probe[] = [
  {
    name: "GET /document-store/store",
    policy: "documentStore.read",
    requires: ["documentStore.list"],
    object: "documentStore",
    list: true,
    ok: 200,
    run: (c) => get(docStores.GET, c),
  },
  {
    name: "POST /document-store/store",
    policy: "documentStore.update",
    requires: ["documentStore.create"],
    ok: 201,
    run: (c) => send(docStores.POST, "POST", c, { name: "probe", graph: DOCUMENT_STORE_GRAPH }),
  },
  {
    name: "GET /document-store/store/{id}",
    policy: "documentStore.read",
    requires: ["documentStore.read"],
    object: "documentStore",
    ok: 200,
    run: (c) => get(docStoreById.GET, c),
  },
  {
    name: "PUT /document-store/store/{id}",
    policy: "documentStore.update",
    requires: ["documentStore.update"],
    object: "documentStore",
    ok: 200,
    run: (c) => send(docStoreById.PUT, "PUT", c, { description: "probed" }),
  },
  {
    name: "DELETE /document-store/store/{id}",
    policy: "documentStore.update",
    requires: ["documentStore.delete"],
    object: "documentStore",
    fresh: true,
    ok: 200,
    run: (c) => send(docStoreById.DELETE, "DELETE", c),
  },
  {
    name: "POST /document-store/upsert/{id}",
    policy: "documentStore.upsert",
    requires: ["documentStore.upsert"],
    object: "documentStore",
    ok: 200,
    run: (c) => send(docStoreUpsert.POST, "POST", c),
  },
  {
    name: "POST /document-store/refresh/{id}",
    policy: "documentStore.upsert",
    requires: ["documentStore.upsert"],
    object: "documentStore",
    ok: 200,
    run: (c) => send(docStoreRefresh.POST, "POST", c),
  },
  {
    name: "POST /document-store/loader/preview",
    policy: "documentStore.upsert",
    requires: ["documentStore.upsert"],
    object: "documentStore",
    ok: 200,
    run: (c) => send(docStorePreview.POST, "POST", c, { storeId: c.id }),
  },
  {
    name: "POST /document-store/vectorstore/query",
    policy: "documentStore.read",
    requires: ["documentStore.read"],
    object: "documentStore",
    ok: 200,
    run: (c) => send(docStoreQuery.POST, "POST", c, { storeId: c.id, query: "refunds" }),
  },
];

export const PROBES: Probe[] = [
  ...DOCUMENT_STORE_PROBES,
  {
    name: "GET /chatflows/{id}/webhook",
    policy: "chatflow.webhook",
    requires: ["chatflow.webhook"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(webhookSettings.GET, c),
  },
  {
    name: "PUT /chatflows/{id}/webhook",
    policy: "chatflow.webhook",
    requires: ["chatflow.webhook"],
    object: "chatflow",
    ok: 200,
    run: (c) => send(webhookSettings.PUT, "PUT", c, { enabled: false }),
  },
  {
    name: "GET /schedules?chatflowId",
    policy: "chatflow.schedule",
    requires: ["chatflow.schedule"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(schedules.GET, c, `/api/v1/schedules?chatflowId=${c.id}`),
  },
  {
    name: "POST /schedules",
    policy: "chatflow.schedule",
    requires: ["chatflow.schedule"],
    object: "chatflow",
    ok: 200,
    run: (c) => call(schedules.POST, { method: "POST", headers: c.headers, body: { chatflowId: c.id, ...SCHEDULE } }),
  },
  {
    name: "PUT /schedules/{id}",
    policy: "chatflow.schedule",
    requires: ["chatflow.schedule"],
    object: "chatflow",
    ok: 200,
    run: async (c) =>
      call(scheduleById.PUT, {
        method: "PUT",
        headers: c.headers,
        params: { id: await scheduleOf(c.id) },
        body: { name: "p" },
      }),
  },
  {
    name: "DELETE /schedules/{id}",
    policy: "chatflow.schedule",
    requires: ["chatflow.schedule"],
    object: "chatflow",
    ok: 200,
    run: async (c) =>
      call(scheduleById.DELETE, { method: "DELETE", headers: c.headers, params: { id: await scheduleOf(c.id) } }),
  },
  {
    name: "GET /chatflows",
    policy: "chatflow.list",
    requires: ["chatflow.list"],
    object: "chatflow",
    list: true,
    ok: 200,
    run: (c) => get(chatflows.GET, c),
  },
  {
    name: "GET /chatflows/{id}",
    policy: "chatflow.read",
    requires: ["chatflow.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(chatflowById.GET, c),
  },
  {
    name: "GET /chatflows/{id}/validate",
    policy: "chatflow.read",
    requires: ["chatflow.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(validate.GET, c),
  },
  {
    name: "POST /chatflows",
    policy: "chatflow.create",
    requires: ["chatflow.create"],
    ok: 201,
    run: (c) => send(chatflows.POST, "POST", c, { name: "new" }),
  },
  {
    name: "POST /chatflows/import",
    policy: "chatflow.create",
    requires: ["chatflow.create"],
    ok: 201,
    run: (c) =>
      send(chatflowImport.POST, "POST", c, {
        name: "imported",
        // The smallest export that imports (one with no nodes is refused).
        nodes: [
          {
            id: "bufferMemory_0",
            type: "customNode",
            position: { x: 0, y: 0 },
            data: { name: "bufferMemory", label: "Buffer Memory", inputs: {} },
          },
        ],
        edges: [],
      }),
  },
  {
    // A node without server-loaded options: the allowed caller reaches the service, which says so (404).
    name: "POST /nodes/{name}/options",
    policy: "chatflow.create",
    requires: ["chatflow.create"],
    ok: 404,
    run: (c) =>
      call(nodeOptions.POST, {
        method: "POST",
        headers: c.headers,
        params: { name: "calculator" },
        body: { input: "name", params: {} },
      }),
  },
  {
    name: "PUT /chatflows/{id}",
    policy: "chatflow.update",
    requires: ["chatflow.update"],
    object: "chatflow",
    ok: 200,
    run: (c) => send(chatflowById.PUT, "PUT", c, { description: "edited" }),
  },
  {
    name: "DELETE /chatflows/{id}",
    policy: "chatflow.delete",
    requires: ["chatflow.delete"],
    object: "chatflow",
    fresh: true,
    ok: 200,
    run: (c) => send(chatflowById.DELETE, "DELETE", c),
  },
  {
    name: "PUT /chatflows/{id} ownerId",
    policy: "chatflow.update",
    requires: ["chatflow.update", "chatflow.transfer"],
    object: "chatflow",
    fresh: true,
    ok: 200,
    run: (c) => send(chatflowById.PUT, "PUT", c, { ownerId: c.adminId }),
  },
  {
    name: "GET /chatflows/{id}/tests",
    policy: "chatflow.test",
    requires: ["chatflow.test"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(testCases.GET, c),
  },
  {
    name: "POST /chatflows/{id}/tests",
    policy: "chatflow.test",
    requires: ["chatflow.test"],
    object: "chatflow",
    ok: 201,
    run: (c) => send(testCases.POST, "POST", c, TEST_CASE),
  },
  {
    name: "PUT /chatflows/{id}/tests/{caseId}",
    policy: "chatflow.test",
    requires: ["chatflow.test"],
    object: "chatflow",
    ok: 200,
    run: async (c) =>
      call(testCaseById.PUT, {
        method: "PUT",
        headers: c.headers,
        params: { id: c.id, caseId: await caseOf(c.id) },
        body: TEST_CASE,
      }),
  },
  {
    name: "DELETE /chatflows/{id}/tests/{caseId}",
    policy: "chatflow.test",
    requires: ["chatflow.test"],
    object: "chatflow",
    ok: 200,
    run: async (c) =>
      call(testCaseById.DELETE, {
        method: "DELETE",
        headers: c.headers,
        params: { id: c.id, caseId: await caseOf(c.id) },
      }),
  },
  // A fresh chatflow has no cases: an allowed run is queued (202) and finishes at once.
  {
    name: "POST /chatflows/{id}/tests/run",
    policy: "chatflow.test",
    requires: ["chatflow.test"],
    object: "chatflow",
    fresh: true,
    ok: 202,
    run: (c) => send(testRun.POST, "POST", c, {}),
  },
  {
    name: "GET /chatflows/{id}/tests/runs",
    policy: "chatflow.test",
    requires: ["chatflow.test"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(testRuns.GET, c),
  },
  {
    name: "POST /prediction/{id}",
    policy: "chatflow.predict",
    requires: ["chatflow.predict"],
    object: "chatflow",
    ok: 200,
    run: (c) => send(prediction.POST, "POST", c, { question: "hello" }),
  },
  {
    name: "GET /openai/models",
    policy: "chatflow.openai",
    requires: ["chatflow.openai"],
    object: "chatflow",
    list: true,
    ok: 200,
    // OpenAI's list is `{ object: "list", data: [...] }`: the matrix reads the array.
    run: async (c) => {
      const res = await get(openAIModels.GET, c);
      return { ...res, json: res.status === 200 ? res.json.data : res.json };
    },
  },
  {
    name: "POST /openai/chat/completions",
    policy: "chatflow.openai",
    requires: ["chatflow.openai"],
    object: "chatflow",
    ok: 200,
    run: (c) =>
      send(openAICompletions.POST, "POST", c, { model: c.id, messages: [{ role: "user", content: "hello" }] }),
  },
  {
    // Pinning a version is for the chatflow's managers: a `predict` key alone is refused (403).
    name: "POST /prediction/{id}?version=1",
    policy: "chatflow.predict",
    requires: ["chatflow.predict", "chatflow.runVersion"],
    object: "chatflow",
    ok: 200,
    run: (c) =>
      call(prediction.POST, {
        method: "POST",
        headers: c.headers,
        params: { id: c.id },
        path: `/api/v1/prediction/${c.id}?version=1`,
        body: { question: "hello" },
      }),
  },
  {
    name: "GET /chatflows/{id}/versions",
    policy: "chatflow.versions",
    requires: ["chatflow.versions"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(versionList.GET, c),
  },
  {
    name: "GET /chatflows/{id}/versions/{n}",
    policy: "chatflow.versions",
    requires: ["chatflow.versions"],
    object: "chatflow",
    ok: 200,
    run: (c) => call(versionOne.GET, { headers: c.headers, params: { id: c.id, n: "1" } }),
  },
  {
    name: "GET /chatflows/{id}/versions/{n}/diff",
    policy: "chatflow.versions",
    requires: ["chatflow.versions"],
    object: "chatflow",
    ok: 200,
    run: (c) =>
      call(versionDiff.GET, {
        headers: c.headers,
        params: { id: c.id, n: "1" },
        path: `/api/v1/chatflows/${c.id}/versions/1/diff?against=1`,
      }),
  },
  {
    name: "POST /chatflows/{id}/versions/{n}/restore",
    policy: "chatflow.update",
    requires: ["chatflow.update"],
    object: "chatflow",
    ok: 201,
    run: (c) =>
      call(versionRestore.POST, { method: "POST", headers: c.headers, params: { id: c.id, n: "1" }, body: {} }),
  },
  {
    name: "POST /chatflows/{id}/publish",
    policy: "chatflow.publish",
    requires: ["chatflow.publish"],
    object: "chatflow",
    ok: 200,
    run: (c) => send(publish.POST, "POST", c, { version: 1 }),
  },
  {
    name: "GET /chatflows-streaming/{id}",
    policy: "chatflow.predict",
    requires: ["chatflow.predict"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(streaming.GET, c),
  },
  {
    name: "GET /chatflows-uploads/{id}",
    policy: "chatflow.predict",
    requires: ["chatflow.predict"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(chatflowUploads.GET, c),
  },
  {
    name: "GET /public-chatbotConfig/{id}",
    policy: "chatflow.predict",
    requires: ["chatflow.predict"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(publicConfig.GET, c),
  },
  {
    name: "POST /domains/analyze",
    policy: "domain.use",
    requires: ["chatflow.predict"],
    object: "chatflow",
    ok: 200,
    run: (c) =>
      call(analyze.POST, {
        method: "POST",
        headers: c.headers,
        body: { chatflowId: c.id, filter: { searchTerm: "matches-nothing" } },
      }),
  },
  // The fixture flow has no store node: a caller let through gets the service's 422 saying so.
  {
    name: "POST /vector/upsert/{id}",
    policy: "chatflow.upsert",
    requires: ["chatflow.upsert"],
    object: "chatflow",
    ok: 422,
    run: (c) => send(upsert.POST, "POST", c, {}),
  },
  {
    name: "GET /vector/stores/{id}",
    policy: "chatflow.upsert",
    requires: ["chatflow.upsert"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(stores.GET, c),
  },
  {
    name: "GET /chatmessage/{id}",
    policy: "chatmessage.read",
    requires: ["chatmessage.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(messages.GET, c),
  },
  {
    name: "GET /feedback/{id}",
    policy: "chatmessage.read",
    requires: ["chatmessage.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(feedback.GET, c),
  },
  {
    name: "GET /leads/{id}",
    policy: "chatmessage.read",
    requires: ["chatmessage.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(leads.GET, c),
  },
  {
    name: "GET /chatmessage/{id}/sessions",
    policy: "chatmessage.read",
    requires: ["chatmessage.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(sessions.GET, c),
  },
  {
    name: "DELETE /chatmessage/{id}",
    policy: "chatmessage.delete",
    requires: ["chatmessage.delete"],
    object: "chatflow",
    ok: 200,
    run: (c) => send(messages.DELETE, "DELETE", c),
  },
  {
    name: "GET /credentials",
    policy: "credential.list",
    requires: ["credential.list"],
    object: "credential",
    list: true,
    ok: 200,
    run: (c) => get(credentials.GET, c),
  },
  {
    name: "POST /credentials",
    policy: "credential.create",
    requires: ["credential.create"],
    ok: 201,
    run: (c) => send(credentials.POST, "POST", c, { name: "mine", type: "openai", data: { apiKey: "sk-new" } }),
  },
  {
    name: "PUT /credentials/{id}",
    policy: "credential.update",
    requires: ["credential.update"],
    object: "credential",
    ok: 200,
    run: (c) => send(credentialById.PUT, "PUT", c, { name: "renamed" }),
  },
  {
    name: "POST /credentials/{id}/test",
    policy: "credential.update",
    requires: ["credential.update"],
    object: "credential",
    ok: 200,
    run: (c) => send(credentialTest.POST, "POST", c),
  },
  {
    name: "DELETE /credentials/{id}",
    policy: "credential.delete",
    requires: ["credential.delete"],
    object: "credential",
    fresh: true,
    ok: 200,
    run: (c) => send(credentialById.DELETE, "DELETE", c),
  },
  {
    name: "PUT /credentials/{id} sharedWithBuilders",
    policy: "credential.update",
    requires: ["credential.update", "credential.share"],
    object: "credential",
    fresh: true,
    ok: 200,
    run: (c) => send(credentialById.PUT, "PUT", c, { sharedWithBuilders: true }),
  },
  {
    name: "PUT /credentials/{id} ownerId",
    policy: "credential.update",
    requires: ["credential.update", "credential.transfer"],
    object: "credential",
    fresh: true,
    ok: 200,
    run: (c) => send(credentialById.PUT, "PUT", c, { ownerId: c.adminId }),
  },
  {
    name: "POST /chatflows with a credential on a node",
    policy: "chatflow.create",
    requires: ["chatflow.create", "credential.use"],
    object: "credential",
    ok: 201,
    run: (c) => send(chatflows.POST, "POST", c, { name: "uses", graph: graphUsing(c.id) }),
  },
  {
    name: "GET /apikey",
    policy: "apikey.list",
    requires: ["apikey.list"],
    object: "apikey",
    list: true,
    ok: 200,
    run: (c) => get(apikeys.GET, c),
  },
  {
    name: "POST /apikey",
    policy: "apikey.create",
    requires: ["apikey.create"],
    ok: 201,
    run: (c) => send(apikeys.POST, "POST", c, { name: "k", permissions: ["predict"] }),
  },
  {
    name: "DELETE /apikey/{id}",
    policy: "apikey.revoke",
    requires: ["apikey.revoke"],
    object: "apikey",
    fresh: true,
    ok: 200,
    run: (c) => send(apikeyById.DELETE, "DELETE", c),
  },
  { name: "GET /users", policy: "user.manage", requires: ["user.manage"], ok: 200, run: (c) => get(users.GET, c) },
  { name: "GET /domains", policy: "domain.use", requires: ["domain.use"], ok: 200, run: (c) => get(domains.GET, c) },
  { name: "GET /nodes", policy: "node.list", requires: ["node.list"], ok: 200, run: (c) => get(nodes.GET, c) },
  {
    name: "GET /variables",
    policy: "variable.list",
    requires: ["variable.list"],
    ok: 200,
    run: (c) => get(variables.GET, c),
  },
  {
    name: "POST /variables",
    policy: "variable.manage",
    requires: ["variable.manage"],
    ok: 201,
    run: (c) => send(variables.POST, "POST", c, { name: `probe_${crypto.randomUUID().slice(0, 8)}`, value: "x" }),
  },
  {
    name: "PUT /variables/{id}",
    policy: "variable.manage",
    requires: ["variable.manage"],
    ok: 200,
    run: async (c) => {
      const v = await createVariable({ name: `probe_${crypto.randomUUID().slice(0, 8)}`, value: "x", type: "static" });
      return send(variableById.PUT, "PUT", { ...c, id: v.id }, { value: "y" });
    },
  },
  {
    name: "DELETE /variables/{id}",
    policy: "variable.manage",
    requires: ["variable.manage"],
    ok: 200,
    run: async (c) => {
      const v = await createVariable({ name: `probe_${crypto.randomUUID().slice(0, 8)}`, value: "x", type: "static" });
      return send(variableById.DELETE, "DELETE", { ...c, id: v.id });
    },
  },
  {
    name: "GET /executions",
    policy: "execution.read",
    requires: ["execution.read"],
    object: "execution",
    list: true,
    ok: 200,
    // The list is the answer's `data` (what the matrix looks for the object in).
    run: async (c) => {
      const res = await get(executions.GET, c);
      return res.status === 200 ? { ...res, json: res.json.data } : res;
    },
  },
  {
    name: "GET /executions/{id}",
    policy: "execution.read",
    requires: ["execution.read"],
    object: "execution",
    ok: 200,
    run: (c) => get(executionById.GET, c),
  },
  {
    name: "DELETE /executions/{id}",
    policy: "execution.delete",
    requires: ["execution.delete"],
    object: "execution",
    fresh: true,
    ok: 200,
    run: (c) => send(executionById.DELETE, "DELETE", c),
  },
  {
    name: "DELETE /executions",
    policy: "execution.delete",
    requires: ["execution.delete"],
    object: "execution",
    fresh: true,
    ok: 200,
    run: (c) => send(executions.DELETE, "DELETE", c, { executionIds: [c.id] }),
  },
  {
    name: "GET /usage?chatflowId={id}",
    policy: "usage.read",
    requires: ["usage.read"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(usage.GET, c, `/api/v1/usage?chatflowId=${c.id}`),
  },
  {
    name: "GET /usage/prices",
    policy: "usage.read",
    requires: ["usage.read"],
    ok: 200,
    run: (c) => get(usagePrices.GET, c),
  },
  {
    name: "PUT /usage/prices",
    policy: "usage.prices",
    requires: ["usage.prices"],
    ok: 200,
    run: (c) => send(usagePrices.PUT, "PUT", c, { prices: [] }),
  },
  {
    name: "GET /mcp-server/{id}",
    policy: "chatflow.mcpServer",
    requires: ["chatflow.mcpServer"],
    object: "chatflow",
    ok: 200,
    run: (c) => get(mcpServer.GET, c),
  },
  {
    name: "POST /mcp-server/{id}",
    policy: "chatflow.mcpServer",
    requires: ["chatflow.mcpServer"],
    object: "chatflow",
    fresh: true,
    ok: 201,
    run: (c) => send(mcpServer.POST, "POST", c, {}),
  },
  {
    name: "PUT /mcp-server/{id}",
    policy: "chatflow.mcpServer",
    requires: ["chatflow.mcpServer"],
    object: "chatflow",
    fresh: true,
    ok: 200,
    run: async (c) => {
      await enableMcpServer(c.id, {}, systemCaller);
      return send(mcpServer.PUT, "PUT", c, { description: "probed" });
    },
  },
  {
    name: "DELETE /mcp-server/{id}",
    policy: "chatflow.mcpServer",
    requires: ["chatflow.mcpServer"],
    object: "chatflow",
    fresh: true,
    ok: 200,
    run: (c) => send(mcpServer.DELETE, "DELETE", c),
  },
  {
    name: "POST /mcp-server/{id}/refresh",
    policy: "chatflow.mcpServer",
    requires: ["chatflow.mcpServer"],
    object: "chatflow",
    fresh: true,
    ok: 200,
    run: async (c) => {
      await enableMcpServer(c.id, {}, systemCaller);
      return send(mcpRefresh.POST, "POST", c);
    },
  },
  {
    name: "GET /admin/queue",
    policy: "queue.view",
    requires: ["queue.view"],
    ok: 200,
    run: (c) => get(adminQueue.GET, c),
  },
];

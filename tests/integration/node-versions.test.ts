import { beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as validate from "../../app/api/v1/chatflows/[id]/validate/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { setupFirstAdmin } from "../../lib/services/users";

let session: Record<string, string>;
beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "versions@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});

/** Chat model → conversation chain, the model saved with the given definition version. */
const graph = (version?: number) => ({
  nodes: [
    {
      id: "model",
      type: "chatOpenAICompatible",
      ...(version ? { version } : {}),
      position: { x: 0, y: 0 },
      data: { inputs: { model: "m", baseURL: "http://127.0.0.1:9/v1" } },
    },
    { id: "chain", type: "conversationChain", position: { x: 300, y: 0 }, data: { inputs: {} } },
  ],
  edges: [
    { id: "e", source: "model", sourceHandle: "model:out:chatModel", target: "chain", targetHandle: "chain:in:model" },
  ],
});

const create = async (g: object) => {
  const res = await call(chatflows.POST, { method: "POST", headers: session, body: { name: "Versions", graph: g } });
  expect(res.status).toBe(201);
  return res.json.id as string;
};

describe("saved node versions", () => {
  it("keeps the version a node was saved with", async () => {
    const id = await create(graph(1));
    const got = await call(chatflowById.GET, { params: { id }, headers: session });
    expect(got.json.graph.nodes[0]).toMatchObject({ id: "model", type: "chatOpenAICompatible", version: 1 });
    expect(got.json.graph.nodes[1]).not.toHaveProperty("version");
    expect((await call(validate.GET, { params: { id }, headers: session })).json).toMatchObject({ valid: true });
  });

  it("refuses a node saved by a newer server, naming it, on validate and before any model call", async () => {
    const id = await create(graph(99));
    const checked = await call(validate.GET, { params: { id }, headers: session });
    expect(checked.json.valid).toBe(false);
    expect(checked.json.problems).toEqual([expect.objectContaining({ code: "node_version_newer", nodeId: "model" })]);
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question: "hi" },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({
      code: "invalid_graph",
      message: expect.stringContaining("(model) was saved with version 99"),
    });
  });
});

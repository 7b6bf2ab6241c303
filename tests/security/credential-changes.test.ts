// Issue 10, finding 8: a credential rotated or deleted kept working in flows built before. Built
// flows hold decrypted values, so a change must reach the very next prediction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as credentialById from "../../app/api/v1/credentials/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { setupFirstAdmin } from "../../lib/services/users";

let stub: ModelStub;
let session: Record<string, string>;

beforeAll(async () => {
  // The server's own key must never be what the stub sees: the node has a credential.
  stub = await startServerModelStub({ OPENAI_API_KEY: "server-key", OUTBOUND_ALLOW_PRIVATE: "true" });
  session = await auth.session(
    (await setupFirstAdmin({ email: "admin@cred.test", name: "Ada", password: "cred-password-1" })).id,
  );
});
afterAll(() => stub.close());

describe("credential changes take effect at once", () => {
  it("uses the new key after a rotation, and names the credential once it is deleted", async () => {
    const cred = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "model", type: "openai", data: { apiKey: "sk-first", baseURL: stub.url } },
    });
    expect(cred.status).toBe(201);
    const graph = exampleFlow("conversation.json").graph;
    graph.nodes.find((n) => n.type === "chatOpenAICompatible")!.data.inputs.credential = cred.json.id;
    const flow = await call(chatflows.POST, { method: "POST", headers: session, body: { name: "rotating", graph } });
    expect(flow.status).toBe(201);
    const ask = () =>
      call(prediction.POST, {
        method: "POST",
        params: { id: flow.json.id },
        headers: session,
        body: { question: "hello" },
      });
    const lastAuthorization = () =>
      stub.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)?.authorization;

    expect((await ask()).status).toBe(200);
    expect(lastAuthorization()).toBe("Bearer sk-first");
    const rotate = await call(credentialById.PUT, {
      method: "PUT",
      params: { id: cred.json.id },
      headers: session,
      body: { data: { apiKey: "sk-second", baseURL: stub.url } },
    });
    expect(rotate.status).toBe(200);
    expect((await ask()).status).toBe(200);
    expect(lastAuthorization()).toBe("Bearer sk-second");

    const calls = stub.requests.length;
    expect(
      (await call(credentialById.DELETE, { method: "DELETE", params: { id: cred.json.id }, headers: session })).status,
    ).toBe(200);
    const after = await ask();
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect(after.status).toBeLessThan(500);
    expect(after.json.error.message).toContain(cred.json.id);
    expect(stub.requests.length).toBe(calls);
  });
});

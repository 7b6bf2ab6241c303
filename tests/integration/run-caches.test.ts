import { beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as variables from "../../app/api/v1/variables/route";
import * as variableById from "../../app/api/v1/variables/[id]/route";
import { setupFirstAdmin } from "../../lib/services/users";
import { createChatflow } from "../../lib/services/chatflows";
import { systemCaller } from "../../dev/callers";

/**
 * What a run reads on every prediction is cached per process (lib/state/catalogue.ts): the global
 * variables (`$vars`) and the price table. A change through the API is seen by the very next run:
 * the service announces it and the cache drops it (the price side: usage.test.ts).
 */

let session: Record<string, string>;
let flowId: string;

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  const graph = {
    nodes: [
      { id: "start", type: "startAgentflow", position: { x: 0, y: 0 }, data: { inputs: {} } },
      {
        id: "reply",
        type: "directReplyAgentflow",
        position: { x: 300, y: 0 },
        data: { inputs: { directReplyMessage: "Greeting: {{$vars.greeting}}" } },
      },
    ],
    edges: [
      { id: "e", source: "start", sourceHandle: "start:out:output", target: "reply", targetHandle: "reply:in:input" },
    ],
  };
  flowId = (await createChatflow({ name: "Vars", type: "AGENTFLOW", graph: graph as never }, systemCaller)).id;
});

const answer = async () => {
  const res = await call(prediction.POST, {
    method: "POST",
    params: { id: flowId },
    headers: session,
    body: { question: "hi" },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.text as string;
};

describe("the global variables a run reads", () => {
  it("are read again after a create, an update and a delete", async () => {
    expect(await answer()).toBe("Greeting: ");
    const created = await call(variables.POST, {
      method: "POST",
      headers: session,
      body: { name: "greeting", value: "hello" },
    });
    expect(created.status, created.text).toBe(201);
    expect(await answer()).toBe("Greeting: hello");
    const id = created.json.id as string;
    const updated = await call(variableById.PUT, {
      method: "PUT",
      params: { id },
      headers: session,
      body: { value: "bonjour" },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await answer()).toBe("Greeting: bonjour");
    expect((await call(variableById.DELETE, { method: "DELETE", params: { id }, headers: session })).status).toBe(200);
    expect(await answer()).toBe("Greeting: ");
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import { setupFirstAdmin } from "../../lib/services/users";
import { readExampleFlows } from "../../lib/services/examples";

let session: Record<string, string>;

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "admin@example.com", name: "Admin", password: "admin-pass-1" });
  session = await auth.session(admin.id);
});

const post = (handler: typeof chatflows.POST, body: unknown) =>
  call(handler, { method: "POST", headers: session, body });

describe("templates and duplicates (what the chatflow list sends)", () => {
  it("a template becomes a new chatflow, and a duplicate copies its graph and settings as a private new one", async () => {
    const example = readExampleFlows().find((f) => f.file === "openapi-chain-only.json")!;
    const fromTemplate = await post(chatflows.POST, {
      name: example.name,
      description: example.description,
      graph: example.graph,
      overrideAllowList: example.overrideAllowList,
      chatbotConfig: example.chatbotConfig,
    });
    expect(fromTemplate.status, fromTemplate.text).toBe(201);
    expect(fromTemplate.json.graph).toEqual(example.graph);
    await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: fromTemplate.json.id },
      headers: session,
      body: { isPublic: true, chatbotConfig: { title: "Shop helper" } },
    });

    // The list's Duplicate: GET the chatflow, POST its graph and texts under "… (copy)".
    const original = (await call(chatflowById.GET, { params: { id: fromTemplate.json.id }, headers: session })).json;
    expect(original.speechToText).toEqual({});
    const copy = await post(chatflows.POST, {
      name: `${original.name} (copy)`,
      description: original.description,
      graph: original.graph,
      overrideAllowList: original.overrideAllowList,
      chatbotConfig: original.chatbotConfig,
    });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.json).toMatchObject({
      name: "OpenAPI chain only (copy)",
      graph: original.graph,
      chatbotConfig: { title: "Shop helper" },
      isPublic: false,
      version: 1,
    });
    expect(copy.json.id).not.toBe(original.id);
    // An unset speech-to-text ({}) is not a setting the API takes back: the list leaves it out.
    const withEmpty = await post(chatflows.POST, { name: "x", speechToText: original.speechToText });
    expect(withEmpty.status).toBe(400);
  });
});

describe("validation errors a person reads", () => {
  it("are sentences about the field; details keep the field, zod's code and raw message", async () => {
    const long = await post(chatflows.POST, { name: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(long.json.error).toMatchObject({
      code: "validation_failed",
      message: "Name is too long (at most 200 characters).",
      details: [{ field: "body.name", path: ["name"], code: "too_big" }],
    });
    expect(long.json.error.details[0].message).toMatch(/200/);

    const badUrl = await post(credentials.POST as never, {
      name: "model",
      type: "openai",
      data: { apiKey: "sk-test", baseURL: "not a url" },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.json.error.message).toBe("Base URL must be an http(s) URL.");
    expect(badUrl.json.error.details[0].field).toBe("body.data.baseURL");

    const extra = await post(chatflows.POST, { name: "ok", colour: "red" });
    expect(extra.status).toBe(400);
    expect(extra.json.error.message).toBe("Unknown field in the request: colour.");
  });

  it("a backwards date range is one sentence, naming startDate in details", async () => {
    const flow = await post(chatflows.POST, { name: "dates" });
    const res = await call(messages.GET, {
      params: { id: flow.json.id },
      path: `/api/v1/chatmessage/${flow.json.id}?startDate=2025-03-02&endDate=2025-03-01`,
      headers: session,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("The start date must not be after the end date.");
    expect(res.json.error.details.map((d: { field: string }) => d.field)).toEqual(["query.startDate"]);
  });
});

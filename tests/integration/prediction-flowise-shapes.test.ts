// Issue 13: POST /api/v1/prediction/{id} in the shapes Flowise documents and its clients send —
// multipart/form-data (files, JSON-string fields), `url` uploads fetched through the outbound
// guard, and history as {role, content} or flowise-sdk's {type, message} — over real HTTP.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FlowiseClient } from "flowise-sdk";
import { auth } from "../support/http";
import { closedPort, createRecordingServer, type RecordingServer } from "../support/recording-server";
import { startServerModelStub } from "../support/server-model-stub";
import { exampleFlow } from "../../dev/flows";
import type { ModelStub } from "../../dev/model-stub/server";
import { parseSse, serveRoutes } from "../../dev/route-server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as streamingCheck from "../../app/api/v1/chatflows-streaming/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";

const MAX = 4096;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const GIF = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.alloc(40, 5)]);
const BIG_PNG = Buffer.concat([PNG, Buffer.alloc(MAX * 2, 1)]);

let stub: ModelStub;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let images: RecordingServer;
let key: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  stub = await startServerModelStub({ UPLOAD_MAX_BYTES: String(MAX), OUTBOUND_ALLOW_PRIVATE: "false" });
  // An image host on 127.0.0.1 (private: reachable only when the operator lists it).
  images = await createRecordingServer((req, res) => {
    const url = req.url ?? "";
    if (url === "/cat.gif") return void res.writeHead(200, { "content-type": "image/gif" }).end(GIF);
    if (url === "/big.png") return void res.writeHead(200, { "content-type": "image/png" }).end(BIG_PNG);
    if (url === "/big-chunked.png") {
      // No content-length: the cap must hold while the body streams.
      res.writeHead(200, { "content-type": "image/png", "transfer-encoding": "chunked" });
      for (let i = 0; i < BIG_PNG.length; i += 1024) res.write(BIG_PNG.subarray(i, i + 1024));
      return void res.end();
    }
    if (url === "/page.html") return void res.writeHead(200, { "content-type": "image/png" }).end("<html></html>");
    if (url === "/broken.png") return void res.writeHead(500).end("boom");
    res.writeHead(404).end("no");
  });
  ids.vision = (
    await createChatflow(
      { name: "vision", graph: exampleFlow("conversation.json", { allowImages: true }).graph as never },
      systemCaller,
    )
  ).id;
  ids.plain = (
    await createChatflow({ name: "plain", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
  server = await serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST as never },
    { method: "GET", pattern: /^\/api\/v1\/chatflows-streaming\/(?<id>[^/]+)$/, handler: streamingCheck.GET as never },
  ]);
});
afterAll(() => Promise.all([stub.close(), images.close(), server.close()]));

/** The operator's list of private hosts flows may reach (the model stub's host is allowed as OPENAI_BASE_URL). */
function allowHosts(list: string) {
  process.env.OUTBOUND_ALLOW_HOSTS = list;
  resetEnvForTests();
}
beforeEach(() => allowHosts(""));

/** The parts of an answer (or an error) these tests read. */
type Answer = {
  text: string;
  question: string;
  chatId: string;
  sessionId: string;
  error: { message: string; details: { field: string }[] };
};

async function send(flow: string, body: FormData | object) {
  const form = body instanceof FormData;
  const res = await fetch(`${server.url}/api/v1/prediction/${ids[flow]}`, {
    method: "POST",
    headers: { ...auth.bearer(key), ...(form ? {} : { "content-type": "application/json" }) },
    body: form ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Answer | undefined;
  try {
    json = JSON.parse(text) as Answer;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Answer };
}

function form(fields: Record<string, string>, files: { name: string; bytes: Buffer; type?: string }[] = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append("files", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return f;
}

const lastModelMessages = () => JSON.stringify((stub.requests.at(-1)?.body as { messages?: unknown })?.messages);

async function storedUploads(chatId: string) {
  const row = await (await getDb()).chatMessage.findFirst({ where: { chatId, role: "userMessage" } });
  return (row?.fileUploads ?? null) as { path: string; name: string; mime: string; type: string }[] | null;
}

describe("multipart/form-data", () => {
  it("takes an image in `files` on a flow that allows images: it reaches the model and is stored by content hash", async () => {
    const res = await send(
      "vision",
      form({ question: "What is in this picture?" }, [{ name: "photo.png", bytes: PNG }]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.text).toMatch(/I see 1 image/);
    expect(lastModelMessages()).toContain(PNG.toString("base64"));
    const [file] = (await storedUploads(res.json.chatId))!;
    expect(file).toMatchObject({ name: "photo.png", mime: "image/png", type: "file" });
    expect(file.path).toBe(`uploads/${ids.vision}/${createHash("sha256").update(PNG).digest("hex")}.png`);
    expect(fs.readFileSync(path.resolve(process.env.DATA_DIR!, file.path)).equals(PNG)).toBe(true);
  });

  it("refuses an image file on a flow without image uploads, and a file that is neither image nor audio", async () => {
    const plain = await send("plain", form({ question: "look" }, [{ name: "photo.png", bytes: PNG }]));
    expect(plain.status).toBe(400);
    expect(plain.json.error.message).toMatch(/uploads\.0: image uploads are not enabled/);
    const text = await send("vision", form({ question: "look" }, [{ name: "notes.txt", bytes: Buffer.from("hi") }]));
    expect(text.status).toBe(415);
    expect(text.json.error.message).toMatch(/files \(notes\.txt\): prediction files accept images/);
    const big = await send("vision", form({ question: "look" }, [{ name: "big.png", bytes: BIG_PNG }]));
    expect(big.status).toBe(413);
    expect(big.json.error.message).toContain("UPLOAD_MAX_BYTES");
  });

  it("works without files: question, chatId and JSON-string overrideConfig and history", async () => {
    const res = await send(
      "plain",
      form({
        question: "What is my name?",
        chatId: "form-chat-1",
        overrideConfig: JSON.stringify({ sessionId: "form-session-1" }),
        history: JSON.stringify([
          { role: "userMessage", content: "Hello, my name is Grace-from-a-form" },
          { role: "apiMessage", content: "Nice to meet you, Grace." },
        ]),
      }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      chatId: "form-chat-1",
      sessionId: "form-session-1",
      question: "What is my name?",
    });
    expect(lastModelMessages()).toContain("Hello, my name is Grace-from-a-form");
    expect(await storedUploads("form-chat-1")).toBeNull();
  });

  it("answers 400 naming the field when a JSON-string field is not JSON or not the right shape", async () => {
    const badJson = await send("plain", form({ question: "hi", overrideConfig: "{sessionId: nope" }));
    expect(badJson.status).toBe(400);
    expect(badJson.json.error.message).toMatch(/^overrideConfig: must be a JSON string/);
    const badHistory = await send("plain", form({ question: "hi", history: "[{" }));
    expect(badHistory.status).toBe(400);
    expect(badHistory.json.error.message).toMatch(/^history: /);
    const notObject = await send("plain", form({ question: "hi", overrideConfig: "[1]" }));
    expect(notObject.status).toBe(400);
    expect(notObject.json.error.message).toMatch(/overrideConfig: must be a JSON object/);
    const badStreaming = await send("plain", form({ question: "hi", streaming: "yes" }));
    expect(badStreaming.status).toBe(400);
    expect(badStreaming.json.error.message).toMatch(/streaming/);
    const nul = await send(
      "plain",
      form({ question: "hi", history: '[{"role":"userMessage","content":"a\\u0000b"}]' }),
    );
    expect(nul.status).toBe(400);
    expect(nul.json.error.message).toMatch(/^history.*NUL/);
    const deep = await send("plain", form({ question: "hi", overrideConfig: `${"[".repeat(500)}${"]".repeat(500)}` }));
    expect(deep.status).toBe(400);
    expect(deep.json.error.message).toMatch(/^overrideConfig/);
    const badItem = await send("plain", form({ question: "hi", history: JSON.stringify([{ who: "me" }]) }));
    expect(badItem.status).toBe(400);
    expect(badItem.json.error.message).toMatch(/^history\.0: must be \{role, content\} or \{type, message\}/);
    const noQuestion = await send("plain", form({}));
    expect(noQuestion.status).toBe(400);
    expect(noQuestion.json.error.message).toMatch(/question: is required/);
  });

  it("reads an `uploads` JSON field (url uploads too) next to files, and other fields as overrides", async () => {
    allowHosts(images.host);
    const res = await send(
      "vision",
      form(
        {
          question: "Compare them",
          uploads: JSON.stringify([{ type: "url", name: "cat", mime: "image/gif", data: `${images.origin}/cat.gif` }]),
        },
        [{ name: "photo.png", bytes: PNG }],
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.text).toMatch(/I see 2 images/);
    expect((await storedUploads(res.json.chatId))?.map((f) => f.mime)).toEqual(["image/gif", "image/png"]);
    const flag = await send("plain", form({ question: "hi", returnSourceDocuments: "true" }));
    expect(flag.status, flag.text).toBe(200);
    expect(flag.json).toHaveProperty("sourceDocuments");
    // Flowise reads a form's other fields as overrideConfig: checked against the chatflow's allow-list.
    const override = await send("plain", form({ question: "hi", temperature: "0.1" }));
    expect(override.status).toBe(400);
    expect(override.text).toMatch(/temperature/);
  });

  it("streams when the form says streaming=true", async () => {
    const res = await send(
      "vision",
      form({ question: "Describe it", streaming: "true" }, [{ name: "p.png", bytes: PNG }]),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(res.text);
    expect(events[0].event).toBe("start");
    expect(events.at(-1)!.event).toBe("end");
    const text = events
      .filter((e) => e.event === "token")
      .map((e) => e.data)
      .join("");
    expect(text).toMatch(/I see 1 image/);
  });
});

describe("uploads of type url", () => {
  const urlUpload = (p: string, extra: object = {}) => ({
    type: "url",
    name: "pic",
    mime: "image/png",
    data: `${images.origin}${p}`,
    ...extra,
  });

  it("fetches the image through the outbound guard when the operator allows the host, and stores it", async () => {
    allowHosts(images.host);
    const before = images.requests.length;
    const res = await send("vision", { question: "What is this?", uploads: [urlUpload("/cat.gif")] });
    expect(res.status, res.text).toBe(200);
    expect(images.requests.length).toBe(before + 1);
    expect(res.json.text).toMatch(/I see 1 image/);
    // The content decides the type, not the declared mime (Flowise defaults url uploads to image/png).
    expect(lastModelMessages()).toContain(`data:image/gif;base64,${GIF.toString("base64")}`);
    const [file] = (await storedUploads(res.json.chatId))!;
    expect(file).toMatchObject({ mime: "image/gif", name: "pic" });
    expect(file.path.endsWith(`${createHash("sha256").update(GIF).digest("hex")}.gif`)).toBe(true);
  });

  it("refuses a private address the operator did not allow, without contacting it", async () => {
    const before = images.requests.length;
    const res = await send("vision", { question: "What is this?", uploads: [urlUpload("/cat.gif")] });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toMatch(/^uploads\.0: .*private or internal address.*OUTBOUND_ALLOW_HOSTS/);
    expect(images.requests.length).toBe(before);
  });

  it("answers 413 past UPLOAD_MAX_BYTES, declared or streamed", async () => {
    allowHosts(images.host);
    for (const p of ["/big.png", "/big-chunked.png"]) {
      const res = await send("vision", { question: "x", uploads: [urlUpload(p)] });
      expect(res.status, p).toBe(413);
      expect(res.json.error.message).toMatch(/^uploads\.0: .*UPLOAD_MAX_BYTES/);
    }
  });

  it("names the upload when the URL is bad (4xx), not an image (415), or its server fails (502)", async () => {
    allowHosts(images.host);
    const missing = await send("vision", { question: "x", uploads: [urlUpload("/nothing.png")] });
    expect(missing.status).toBe(422);
    expect(missing.json.error.message).toMatch(/^uploads\.0: .*HTTP 404/);
    const html = await send("vision", { question: "x", uploads: [urlUpload("/page.html")] });
    expect(html.status).toBe(415);
    expect(html.json.error.message).toMatch(/^uploads\.0: .*not an image/);
    const broken = await send("vision", { question: "x", uploads: [urlUpload("/broken.png")] });
    expect(broken.status).toBe(502);
    expect(broken.json.error.message).toContain(images.host);
    const port = await closedPort();
    allowHosts(`${images.host},127.0.0.1:${port}`);
    const nobody = await send("vision", {
      question: "x",
      uploads: [urlUpload("", { data: `http://127.0.0.1:${port}/a.png` })],
    });
    expect(nobody.status).toBe(422);
    expect(nobody.json.error.message).toMatch(
      new RegExp(`^uploads\\.0: .*127\\.0\\.0\\.1:${port}.*could not be reached`),
    );
    const notHttp = await send("vision", { question: "x", uploads: [urlUpload("", { data: "file:///etc/passwd" })] });
    expect(notHttp.status).toBe(400);
    expect(notHttp.json.error.message).toMatch(/^Uploads data \(uploads item 1\)|^Data \(uploads item 1\)/);
    expect(notHttp.json.error.details[0].field).toBe("body.uploads.0.data");
  });

  it("is not fetched for a flow that does not take images", async () => {
    allowHosts(images.host);
    const before = images.requests.length;
    const res = await send("plain", { question: "x", uploads: [urlUpload("/cat.gif")] });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/uploads\.0: image uploads are not enabled/);
    expect(images.requests.length).toBe(before);
  });
});

describe("history shapes", () => {
  it("takes Flowise's {type, message} and {role, content}, and both reach the model", async () => {
    const res = await send("plain", {
      question: "What is my name?",
      history: [
        { type: "userMessage", message: "Hi, I am Ada-in-sdk-shape" },
        { role: "apiMessage", content: "Hello Ada, noted-in-role-shape." },
        { type: "userMessage", message: "Same either way", role: "userMessage", content: "Same either way" },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const messages = (stub.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
    const sent = JSON.stringify(messages);
    expect(sent).toContain("Hi, I am Ada-in-sdk-shape");
    expect(sent).toContain("Hello Ada, noted-in-role-shape.");
    const ada = messages.find((m) => JSON.stringify(m.content).includes("Ada-in-sdk-shape"));
    const reply = messages.find((m) => JSON.stringify(m.content).includes("noted-in-role-shape"));
    expect(ada?.role).toBe("user");
    expect(reply?.role).toBe("assistant");
  });

  it("answers 400 naming the item for an unknown shape or a conflicting one", async () => {
    for (const item of [
      { role: "user", content: "hi" },
      { speaker: "userMessage", text: "hi" },
      { type: "userMessage" },
      { role: "userMessage", type: "apiMessage", content: "hi" },
    ]) {
      const res = await send("plain", { question: "x", history: [item] });
      expect(res.status, JSON.stringify(item)).toBe(400);
      expect(res.json.error.message).toMatch(/history item 1|History \(item 1\)/);
      expect(res.json.error.details[0].field).toMatch(/^body\.history\.0/);
    }
  });
});

describe("flowise-sdk", () => {
  it("predicts with history in the SDK's own {type, message} shape", async () => {
    const client = new FlowiseClient({ baseUrl: server.url, apiKey: key });
    const answer = (await client.createPrediction({
      chatflowId: ids.plain,
      question: "Who am I?",
      history: [
        { type: "userMessage", message: "Remember me: Lovelace-via-sdk" },
        { type: "apiMessage", message: "I will remember, Lovelace." },
      ],
    })) as Partial<Answer>;
    expect(typeof answer.text).toBe("string");
    expect(answer.question).toBe("Who am I?");
    expect(lastModelMessages()).toContain("Remember me: Lovelace-via-sdk");
    expect(lastModelMessages()).toContain("I will remember, Lovelace.");
  });
});

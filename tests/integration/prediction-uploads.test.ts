import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";

let stub: ModelStub;
let productApi: ProductApi;
let key: string;
const ids: Record<string, string> = {};

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(128, 3)]);
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString("base64")}`;
const image = (bytes = PNG, mime = "image/png") => ({
  type: "file",
  name: "photo.png",
  mime,
  data: dataUrl(mime, bytes),
});

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    OPENAI_MODEL: "stub-model",
    UPLOAD_MAX_BYTES: "4096",
  });
  resetEnvForTests();
  const vision = exampleFlow("conversation.json", { allowImages: true });
  ids.vision = (await createChatflow({ name: "vision", graph: vision.graph as never }, systemCaller)).id;
  ids.plain = (
    await createChatflow({ name: "plain", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  ids.voice = (
    await createChatflow(
      { name: "voice", graph: agent.graph as never, speechToText: { enabled: true, baseUrl: stub.url } },
      systemCaller,
    )
  ).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(() => Promise.all([stub.close(), productApi.close()]));

const predict = (flow: string, body: object) =>
  call(prediction.POST, { method: "POST", params: { id: ids[flow] }, headers: auth.bearer(key), body });

describe("image uploads", () => {
  it("reach a model that allows images as image parts, and are stored under their content hash, not the sent name", async () => {
    const res = await predict("vision", {
      question: "What is in this picture?",
      uploads: [{ ...image(), name: "../../evil.png" }],
    });
    expect(res.status).toBe(200);
    expect(res.json.text).toMatch(/I see 1 image/);
    const sent = JSON.stringify(stub.requests.at(-1)?.body);
    expect(sent).toContain("image_url");
    expect(sent).toContain(PNG.toString("base64"));
    const row = await (await getDb()).chatMessage.findFirst({
      where: { chatId: res.json.chatId, role: "userMessage" },
    });
    const [file] = row!.fileUploads as { path: string; name: string; mime: string }[];
    expect(file.name).toBe("evil.png");
    expect(file.path).toBe(`uploads/${ids.vision}/${createHash("sha256").update(PNG).digest("hex")}.png`);
    expect(fs.readFileSync(path.resolve(process.env.DATA_DIR!, file.path)).equals(PNG)).toBe(true);
  });

  it("are refused with 400 when the flow does not enable them", async () => {
    const res = await predict("plain", { question: "look", uploads: [image()] });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/image uploads are not enabled/);
  });

  it("are checked: content must match the declared type, base64 must be valid, size is capped", async () => {
    const fake = await predict("vision", { question: "x", uploads: [image(Buffer.from("<html>not a png</html>"))] });
    expect(fake.status).toBe(415);
    const mismatch = await predict("vision", { question: "x", uploads: [{ ...image(), mime: "image/jpeg" }] });
    expect(mismatch.status).toBe(400);
    const notBase64 = await predict("vision", {
      question: "x",
      uploads: [{ type: "file", mime: "image/png", name: "a.png", data: "data:image/png;base64,@@@" }],
    });
    expect(notBase64.status).toBe(400);
    const big = await predict("vision", { question: "x", uploads: [image(Buffer.concat([PNG, Buffer.alloc(8192)]))] });
    expect(big.status).toBe(413);
    const tooMany = await predict("vision", { question: "x", uploads: Array.from({ length: 6 }, () => image()) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.message).toMatch(/at most 5/);
  });
});

describe("audio uploads", () => {
  it("are transcribed by the chatflow's speech-to-text and the transcript becomes the question", async () => {
    const before = productApi.requests.length;
    const res = await predict("voice", {
      uploads: [
        {
          type: "audio",
          name: "voice.webm",
          mime: "audio/webm;codecs=opus",
          data: dataUrl("audio/webm;codecs=opus", WEBM),
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.question).toBe("find me a laptop under 1500 in Germany");
    expect(productApi.requests.slice(before)[0].query).toMatchObject({ countryCode: "DE", q: "laptop" });
    expect(stub.requests.some((r) => r.path.endsWith("/audio/transcriptions"))).toBe(true);
  });

  it("are refused when speech-to-text is off, and a question is needed without audio", async () => {
    const res = await predict("plain", {
      uploads: [{ type: "audio", name: "v.webm", mime: "audio/webm", data: dataUrl("audio/webm", WEBM) }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/speech-to-text is not enabled/);
  });
});

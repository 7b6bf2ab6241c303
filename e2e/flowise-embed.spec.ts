import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { build } from "esbuild";
import { expect, test, type Page } from "@playwright/test";
import config from "../playwright.config";
import { exampleFlow } from "../dev/flows";
import { APP } from "./servers";
import { adminAuth, createChatflow, MODEL_STUB, PNG_1x1, resetModel } from "./fixtures/widget-support";

// Flowise's own clients against Switchyard, in Chromium, from host pages on other 127.0.0.1 ports:
// the flowise-embed package (its browser bundle, dist/web.js, as Flowise documents embedding it)
// and flowise-sdk (bundled for the browser with esbuild here). Everything they call must work for
// a public chatflow's allowed origin: config, starter prompts, streaming, memory across reloads,
// image upload and microphone, thumbs feedback, lead capture.
test.describe.configure({ mode: "serial" });
// A fake microphone: the embed's record button records real audio without a device or a prompt.
test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
    ],
  },
});

const require_ = createRequire(import.meta.url);
const EMBED_JS = fs.readFileSync(
  path.join(path.dirname(require_.resolve("flowise-embed/package.json")), "dist/web.js"),
);

/** flowise-sdk for browsers: one script that sets window.FlowiseSDK. */
async function sdkBundle(): Promise<string> {
  const out = await build({
    entryPoints: [require_.resolve("flowise-sdk")],
    bundle: true,
    format: "iife",
    globalName: "FlowiseSDK",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

/** A host site on its own free port: /embed/<id> runs Chatbot.init, /sdk serves flowise-sdk. */
async function startHost(sdkJs: string) {
  const server = http.createServer((req, res) => {
    const url = req.url ?? "";
    if (url === "/flowise-embed.js")
      return res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(EMBED_JS);
    if (url === "/flowise-sdk.js")
      return res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(sdkJs);
    const embed = /^\/embed\/([0-9a-f-]{36})$/.exec(url);
    if (embed) {
      const html = `<!doctype html><html><head><title>Host shop</title></head><body><h1>Host shop</h1>
<script type="module">
  import Chatbot from "/flowise-embed.js";
  Chatbot.init({ chatflowid: ${JSON.stringify(embed[1])}, apiHost: ${JSON.stringify(APP)} });
</script></body></html>`;
      return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    }
    if (url === "/sdk")
      return res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(`<!doctype html><html><head><script src="/flowise-sdk.js"></script></head><body>sdk</body></html>`);
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let shop: Awaited<ReturnType<typeof startHost>>;
let stranger: Awaited<ReturnType<typeof startHost>>;
let flowId = "";

test.beforeAll(async ({ request }) => {
  const sdkJs = await sdkBundle();
  [shop, stranger] = await Promise.all([startHost(sdkJs), startHost(sdkJs)]);
  flowId = await createChatflow(request, {
    name: `flowise-embed ${Date.now()}`,
    graph: exampleFlow("conversation.json", { allowImages: true }).graph,
    isPublic: true,
    allowedOrigins: [shop.origin],
    chatbotConfig: {
      welcomeMessage: "Hello from Switchyard",
      starterPrompts: ["What can you do?", "Tell me about shipping"],
      chatFeedback: { status: true },
      leads: {
        status: true,
        title: "Leave your details",
        successMessage: "Thanks, we will be in touch",
        name: true,
        email: true,
        phone: false,
      },
    },
    speechToText: { enabled: true, baseUrl: `${MODEL_STUB}/v1` },
  });
});
test.afterAll(async () => Promise.all([shop?.close(), stranger?.close()]));
test.beforeEach(async ({ request }) => resetModel(request));

/** The embed's parts (Playwright's CSS locators pierce its open shadow root). */
function embed(page: Page) {
  const root = page.locator("flowise-chatbot");
  return {
    root,
    bubble: root.locator('button[part="button"]'),
    input: root.locator('[data-testid="input"] textarea'),
    hostBubbles: root.locator('[data-testid="host-bubble"]'),
    lastAnswer: root.locator('[data-testid="host-bubble"]').last(),
  };
}

const predictionResponse = (page: Page) =>
  page.waitForResponse((r) => r.url().includes("/api/v1/prediction/") && r.request().method() === "POST");

test("flowise-embed: config, leads, starter prompts, streaming, feedback, memory across reload, image and mic", async ({
  page,
  request,
}) => {
  const failures: string[] = [];
  page.on("response", (r) => {
    if (r.url().startsWith(APP) && r.status() >= 400)
      failures.push(`${r.request().method()} ${r.url()} → ${r.status()}`);
  });
  const e = embed(page);
  await page.goto(`${shop.origin}/embed/${flowId}`);
  await e.bubble.click();
  // flowise-embed takes its welcome message from the host page's snippet (theme.chatWindow), as
  // with Flowise; with none given it shows its own default.
  await expect(e.root.getByText("Hi there! How can I help?")).toBeVisible();

  // Lead capture (chatbotConfig.leads): the form asks for name and e-mail, POST /api/v1/leads/.
  await expect(e.root.getByText("Leave your details")).toBeVisible();
  await e.root.locator('input[placeholder="Name"]').fill("Ada Lovelace");
  await e.root.locator('input[placeholder="Email Address"]').fill("ada@example.com");
  await expect(e.root.locator('input[placeholder="Phone Number"]')).toHaveCount(0);
  await e.root.locator('form:has(input[placeholder="Name"]) button[type="submit"]').click();
  await expect(e.root.getByText("Thanks, we will be in touch")).toBeVisible();
  const leads = await (await request.get(`/api/v1/leads/${flowId}`, { headers: adminAuth })).json();
  expect(leads).toEqual([expect.objectContaining({ name: "Ada Lovelace", email: "ada@example.com" })]);

  // flowise-embed shows starter prompts only while the chat holds its first message: clear the chat
  // (the header's clear button; the lead stays captured), as a visitor would.
  await e.root.locator("button.my-2.ml-2").first().click();
  // Starter prompts show their text (not empty pills); clicking one asks it, and the answer streams.
  await expect(e.root.getByText("What can you do?", { exact: true })).toBeVisible();
  await expect(e.root.getByText("Tell me about shipping", { exact: true })).toBeVisible();
  const streamed = predictionResponse(page);
  await e.root.getByText("What can you do?", { exact: true }).click();
  expect((await streamed).headers()["content-type"]).toMatch(/^text\/event-stream/);
  await expect(e.lastAnswer).toContainText('You said: "What can you do?"');

  // Thumbs up with a comment: POST /api/v1/feedback/{id}, then PUT /api/v1/feedback/{feedbackId}.
  await e.root.locator('button[title="Thumbs Up"]').last().click();
  await e.root.locator('textarea[placeholder="What do you think of the response?"]').fill("Clear answer");
  await e.root.getByRole("button", { name: "Submit Feedback" }).click();
  await expect
    .poll(async () => (await request.get(`/api/v1/feedback/${flowId}`, { headers: adminAuth })).json())
    .toEqual([expect.objectContaining({ rating: "THUMBS_UP", content: "Clear answer" })]);

  // Memory across a reload: the widget keeps its chatId, the server its session.
  await page.reload();
  await e.bubble.click();
  await expect(e.root.getByText('You said: "What can you do?"', { exact: false })).toBeVisible();
  await e.input.fill("and what did I ask first?");
  const second = predictionResponse(page);
  await e.input.press("Enter");
  await second;
  await expect(e.lastAnswer).toContainText("and what did I ask first?");
  const { requests } = await (await request.get(`${MODEL_STUB}/__admin/requests`)).json();
  const chats = requests.filter((r: { path: string }) => r.path === "/v1/chat/completions");
  expect(JSON.stringify(chats.at(-1).body.messages)).toContain("What can you do?");

  // Image upload (uploads.isImageUploadAllowed): the file input is there and the model gets the image.
  await e.root
    .locator('input[type="file"]')
    .setInputFiles({ name: "desk.png", mimeType: "image/png", buffer: PNG_1x1 });
  await e.input.fill("what is in this picture?");
  await e.input.press("Enter");
  await expect(e.lastAnswer).toContainText("I see 1 image");

  // Microphone (uploads.isSpeechToTextEnabled): the record button shows and starts recording (the
  // input bar turns into the recorder). What it then sends — an `audio` upload in the prediction
  // body, flowise-embed's shape — is sent from the page as the widget would, and transcribed.
  const mic = e.root.locator(".start-recording-button");
  await expect(mic).toBeVisible();
  await mic.click();
  await expect(mic).toBeHidden();
  const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(256, 3)]).toString("base64");
  const voice = await page.evaluate(
    async ({ app, id, data }) => {
      const res = await fetch(`${app}/api/v1/prediction/${id}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          question: "",
          chatId: "voice-chat",
          uploads: [{ data, type: "audio", name: `audio_${Date.now()}.webm`, mime: "audio/webm" }],
        }),
      });
      return { status: res.status, body: await res.json() };
    },
    { app: APP, id: flowId, data: `data:audio/webm;base64,${webm}` },
  );
  expect(voice.status, JSON.stringify(voice.body)).toBe(200);
  const after = (await (await request.get(`${MODEL_STUB}/__admin/requests`)).json()).requests;
  expect(after.some((r: { path: string }) => r.path === "/v1/audio/transcriptions")).toBe(true);

  expect(failures).toEqual([]);
});

test("flowise-embed on an origin the chatflow does not allow gets no answer", async ({ page, request }) => {
  const e = embed(page);
  const leadsBefore = await (await request.get(`/api/v1/leads/${flowId}`, { headers: adminAuth })).json();
  await page.goto(`${stranger.origin}/embed/${flowId}`);
  await e.bubble.click();
  // The config is public (any origin): the embed draws itself and asks for the visitor's details
  // first (this chatflow captures leads). Its POST from this origin gets no CORS answer: the browser
  // blocks it, nothing is stored, and the chat never opens.
  await expect(e.root.getByText("Leave your details")).toBeVisible();
  await e.root.locator('input[placeholder="Name"]').fill("Mallory");
  await e.root.locator('input[placeholder="Email Address"]').fill("mallory@example.com");
  await e.root.locator('form:has(input[placeholder="Name"]) button[type="submit"]').click();
  await expect(e.root.getByText("Thanks, we will be in touch")).toHaveCount(0);
  const leadsAfter = await (await request.get(`/api/v1/leads/${flowId}`, { headers: adminAuth })).json();
  expect(leadsAfter).toHaveLength(leadsBefore.length);
  // A prediction from this page is refused the same way (the browser sees no CORS headers).
  const blocked = await page.evaluate(
    async ({ app, id }) =>
      fetch(`${app}/api/v1/prediction/${id}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "hello?" }),
      }).then(
        () => "answered",
        () => "blocked",
      ),
    { app: APP, id: flowId },
  );
  expect(blocked).toBe("blocked");
});

test("flowise-sdk from a browser page: streaming for an allowed origin, blocked for others", async ({ page }) => {
  const ask = (origin: string) =>
    page.goto(`${origin}/sdk`).then(() =>
      page.evaluate(
        async ({ app, id }) => {
          type Client = { createPrediction(d: object): Promise<AsyncIterable<{ event: string; data: unknown }>> };
          const sdk = (window as unknown as { FlowiseSDK: { FlowiseClient: new (o: object) => Client } }).FlowiseSDK;
          const client = new sdk.FlowiseClient({ baseUrl: app });
          try {
            const stream = await client.createPrediction({
              chatflowId: id,
              question: "a question from the sdk",
              streaming: true,
            });
            let text = "";
            for await (const ev of stream) if (ev.event === "token") text += ev.data;
            return text;
          } catch (err) {
            return `failed: ${String(err)}`;
          }
        },
        { app: APP, id: flowId },
      ),
    );
  expect(await ask(shop.origin)).toContain('You said: "a question from the sdk"');
  expect(await ask(stranger.origin)).toMatch(/^failed:/);
});

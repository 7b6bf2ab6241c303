import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { APP, TOOL_PROXY_PORT } from "./servers";
import { adminAuth, createChatflow, startHostSite, widget } from "./fixtures/widget-support";

// Issue 14: a model that cannot be reached is said in words, naming the node and why, in the API's
// answer, the studio's test chat and the widget: not only "The chatflow failed to answer.".
// The model's address is a port the operator allows (OUTBOUND_ALLOW_HOSTS) where nothing listens.

let shop: Awaited<ReturnType<typeof startHostSite>>;
let flowId = "";
const host = `127.0.0.1:${TOOL_PROXY_PORT}`;
const sentence = `Chat model “ChatOpenAI Compatible” could not be reached: connection refused at ${host}.`;

test.beforeAll(async ({ request }) => {
  shop = await startHostSite(APP);
  const example = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../flows/conversation.json"), "utf8"));
  const model = example.graph.nodes.find((n: { type: string }) => n.type === "chatOpenAICompatible");
  model.data.label = "ChatOpenAI Compatible";
  model.data.inputs.baseURL = `http://${host}/v1`;
  flowId = await createChatflow(request, {
    name: `Unreachable model ${Date.now()}`,
    graph: example.graph,
    isPublic: true,
    allowedOrigins: [shop.origin],
  });
});
test.afterAll(async () => shop?.close());

test("the API names the node and the reason (503, details with node id and label)", async ({ request }) => {
  const res = await request.post(`/api/v1/prediction/${flowId}`, { headers: adminAuth, data: { question: "hi" } });
  expect(res.status()).toBe(503);
  const { error } = await res.json();
  expect(error).toMatchObject({
    code: "upstream_unavailable",
    message: sentence,
    details: { node: { id: "chatModel", label: "ChatOpenAI Compatible" }, host, reason: "connection_refused" },
  });
});

test("the test chat says which node failed and why", async ({ page }) => {
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Test chat", exact: true }).click(); // closed on a first visit
  const chat = page.getByRole("complementary", { name: "Test chat" });
  await chat.getByRole("textbox", { name: "Message" }).fill("Hello?");
  await chat.getByRole("button", { name: "Send" }).click();
  await expect(chat.getByTestId("chat-error")).toHaveText(sentence);
  await page.screenshot({ path: "test-results/model-failure-test-chat.png" });
  // The node the error names is one click away on the canvas (by its id: labels may repeat).
  const node = page.locator('.react-flow__node[data-id="chatModel"]');
  await expect(node).not.toHaveClass(/\bselected\b/);
  await chat.getByRole("button", { name: "Show “ChatOpenAI Compatible” on the canvas" }).click();
  await expect(node).toHaveClass(/\bselected\b/);
  await expect(node).toBeInViewport();
});

test("the widget on a host page says which node failed and why", async ({ page }) => {
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  const w = widget(page);
  await w.launcher.click();
  await w.input.fill("Hello?");
  await w.send.click();
  await expect(w.root.locator(".error")).toContainText(sentence);
  // The failed answer is its error alone: no empty bot bubble above it.
  await expect(w.root.locator(".row.bot")).toHaveCount(0);
  await page.screenshot({ path: "test-results/model-failure-widget.png" });
});

import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { signIn } from "./helpers";
import { adminAuth, createChatflow, resetModel } from "./fixtures/widget-support";

// Issue 16: versions, draft and published. The studio's editor and test chat work on the draft;
// the API runs the published version until another one is published.
test.describe.configure({ mode: "serial" });

let flowId = "";
const ASK = "What are your instructions?";

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/${name}.png`, fullPage: false });

/** What the prediction API answers (admin Basic: no version pinned, so the published one runs). */
async function apiAnswer(request: APIRequestContext) {
  const res = await request.post(`/api/v1/prediction/${flowId}`, { headers: adminAuth, data: { question: ASK } });
  expect(res.status(), await res.text()).toBe(200);
  return { version: res.headers()["x-chatflow-version"], text: (await res.json()).text as string };
}

test.beforeAll(async ({ request }) => {
  const raw = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../flows/conversation.json"), "utf8"));
  flowId = await createChatflow(request, {
    name: `Versions ${Date.now()}`,
    graph: raw.graph,
    overrideAllowList: ["temperature"],
  });
});
test.beforeEach(async ({ request }) => resetModel(request));

test("publish pins the API while the draft changes; diff, read-only view and publish in the studio", async ({
  page,
  request,
}) => {
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await expect(page.getByTestId("version-badge")).toContainText("Draft v1");
  await expect(page.getByTestId("version-badge")).toContainText("not published");

  // Publish version 1 from the Publish dialog.
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });
  await expect(dialog.getByTestId("published-version")).toContainText("Not published yet");
  await dialog.getByRole("button", { name: "Publish version 1" }).click();
  await expect(dialog.getByTestId("published-version")).toContainText("Published: version 1");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("version-badge")).toContainText("v1 published");

  // A new draft: another system message (an additional parameter of the chain), saved.
  await page.getByRole("button", { name: "Show additional parameters (1)" }).click();
  const prompt = page.getByRole("textbox", { name: "System message" });
  await prompt.fill("You are Captain Nemo, a terse submarine guide.");
  await expect(page.getByTestId("save-state")).toContainText("Unsaved changes");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-state")).toContainText("All changes saved");
  await expect(page.getByTestId("version-badge")).toContainText("Draft v2");
  await expect(page.getByTestId("version-badge")).toContainText("published v1");

  // The test chat runs the draft …
  await page.getByRole("button", { name: "Test chat", exact: true }).click(); // closed on a first visit
  const chat = page.getByRole("complementary", { name: "Test chat" });
  await chat.getByLabel("Message", { exact: true }).fill(ASK);
  await chat.getByRole("button", { name: "Send" }).click();
  await expect(chat.getByTestId("chat-answer").last()).toContainText("Captain Nemo", { timeout: 30_000 });
  await expect(chat.getByTestId("chat-answer-version").last()).toHaveText("version 2");
  // … while the API still runs the published version 1.
  const before = await apiAnswer(request);
  expect(before.version).toBe("1");
  expect(before.text).toContain("You are a helpful assistant.");
  expect(before.text).not.toContain("Nemo");

  // Versions panel: both versions, the diff names the changed input with old and new values.
  await page.getByRole("button", { name: "Versions" }).click();
  const panel = page.getByRole("complementary", { name: "Versions" });
  await expect(panel.getByTestId("version-2")).toContainText("Draft");
  await expect(panel.getByTestId("version-1")).toContainText("Published");
  await panel.getByTestId("version-1").getByRole("button", { name: "Compare with draft" }).click();
  const diff = panel.getByTestId("version-diff");
  await expect(diff).toContainText("Version 1 → version 2");
  await expect(diff).toContainText("System message");
  await expect(diff).toContainText("− You are a helpful assistant.");
  await expect(diff).toContainText("+ You are Captain Nemo, a terse submarine guide.");
  await shot(page, "versions-diff");

  // Version 1 opens read-only on the canvas; back to the draft after.
  await panel.getByTestId("version-1").getByRole("button", { name: "View" }).click();
  await expect(page.getByTestId("viewing-version")).toContainText("Version 1, read-only");
  // The node keeps its additional parameters open; the field shows version 1's text and takes no edits.
  const oldPrompt = page.getByRole("textbox", { name: "System message" });
  await expect(oldPrompt).toContainText("You are a helpful assistant.");
  await oldPrompt.click({ force: true });
  await page.keyboard.type(" edited");
  await expect(oldPrompt).not.toContainText("edited");
  await expect(page.getByTestId("save-state")).toContainText("All changes saved");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
  await shot(page, "versions-read-only");
  await page.getByRole("button", { name: "Back to the draft" }).click();
  await expect(page.getByTestId("viewing-version")).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "System message" })).toContainText("Captain Nemo");

  // Publishing the draft: the API follows.
  await panel.getByTestId("version-2").getByRole("button", { name: "Publish" }).click();
  await expect(panel.getByTestId("version-2")).toContainText("Published");
  await expect(page.getByTestId("version-badge")).toContainText("v2 published");
  const after = await apiAnswer(request);
  expect(after.version).toBe("2");
  expect(after.text).toContain("Captain Nemo");
  await shot(page, "versions-published");
});

test("a run settings change lists each changed field, label: old → new", async ({ page, request }) => {
  // Version 3: one param callers may override added, speech-to-text turned on with a model.
  const res = await request.put(`/api/v1/chatflows/${flowId}`, {
    headers: adminAuth,
    data: {
      overrideAllowList: ["temperature", "systemMessage"],
      speechToText: { enabled: true, model: "whisper-1" },
      versionMessage: "Speech on",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Versions" }).click();
  const panel = page.getByRole("complementary", { name: "Versions" });
  await panel.getByTestId("version-2").getByRole("button", { name: "Compare with draft" }).click();
  const diff = panel.getByTestId("version-diff");
  await expect(diff).toContainText("Version 2 → version 3");
  await expect(diff).toContainText("Run settings changed (3)");
  await expect(diff).toContainText("Callers may override “systemMessage”: old: no → new: yes");
  await expect(diff).toContainText("Speech-to-text: old: off → new: on");
  await expect(diff).toContainText("Speech-to-text model: old: (not set) → new: whisper-1");
  // Untouched fields stay out: the param allowed in both versions, and no raw JSON.
  await expect(diff).not.toContainText("temperature");
  await expect(diff).not.toContainText("[");
  await expect(diff).not.toContainText("{");
  await diff.scrollIntoViewIfNeeded();
  await shot(page, "versions-settings-diff");
});

test("the versions panel at 390 px wide", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Versions" }).click();
  const panel = page.getByRole("complementary", { name: "Versions" });
  await expect(panel.getByTestId("version-2")).toBeVisible();
  await shot(page, "versions-narrow");
  await panel.getByTestId("version-2").getByRole("button", { name: "Compare with draft" }).click();
  const diff = panel.getByTestId("version-diff");
  await expect(diff).toContainText("Speech-to-text model: old: (not set) → new: whisper-1");
  await diff.scrollIntoViewIfNeeded();
  // The rows wrap inside the panel: nothing wider than the phone.
  const box = await diff.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await shot(page, "versions-settings-diff-narrow");
});

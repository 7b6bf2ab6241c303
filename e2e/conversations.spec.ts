import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";
import { signIn, snap } from "./helpers";
import { MODEL_STUB as STUB } from "./servers";

const basic = { authorization: `Basic ${Buffer.from(`${E2E_ADMIN.email}:${E2E_ADMIN.password}`).toString("base64")}` };

test("an admin filters conversations by type and deletes a session", async ({ page, request }) => {
  await request.post(`${STUB}/__admin/reset`);
  await signIn(page);
  // The Conversation example flow is loaded on the first start.
  const flows = await (await page.request.get("/api/v1/chatflows")).json();
  const flow = flows.find((f: { name: string }) => f.name === "Conversation");
  expect(flow).toBeTruthy();
  const key = (
    await (await page.request.post("/api/v1/apikey", { data: { name: "convo e2e", permissions: ["predict"] } })).json()
  ).key;
  const tag = Date.now().toString(36);
  const predict = (sessionId: string, question: string, headers?: Record<string, string>) =>
    page.request.post(`/api/v1/prediction/${flow.id}`, { headers, data: { question, overrideConfig: { sessionId } } });
  // Two sessions from an app (EXTERNAL, API key) and one from the studio (INTERNAL, session cookie).
  expect((await predict(`ext-a-${tag}`, "Hi, my name is Ada.", { authorization: `Bearer ${key}` })).ok()).toBe(true);
  expect((await predict(`ext-a-${tag}`, "What is my name?", { authorization: `Bearer ${key}` })).ok()).toBe(true);
  expect((await predict(`ext-b-${tag}`, "Hello there", { authorization: `Bearer ${key}` })).ok()).toBe(true);
  expect((await predict(`int-${tag}`, "Testing from the studio")).ok()).toBe(true);

  await page.goto(`/chatflows/${flow.id}/conversations`);
  const sessions = page.getByRole("list", { name: "Sessions" });
  await expect(sessions.getByTestId(`session-int-${tag}`)).toBeVisible();
  await expect(sessions.getByTestId(`session-ext-a-${tag}`)).toContainText("4 messages");

  await page.getByLabel("Type").selectOption("EXTERNAL");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(sessions.getByTestId(`session-int-${tag}`)).toHaveCount(0);
  await expect(sessions.getByTestId(`session-ext-b-${tag}`)).toBeVisible();

  await sessions.getByTestId(`session-ext-a-${tag}`).click();
  const transcript = page.getByRole("list", { name: "Transcript" });
  await expect(transcript.getByRole("listitem")).toHaveCount(4);
  await expect(transcript).toContainText("Your name is Ada.");
  // Each answer names the chatflow version that gave it (the example was never published: its latest, 1).
  await expect(transcript.getByTestId(/^answer-version-/)).toHaveText(["· version 1", "· version 1"]);
  await snap(page, "conversations");

  // Cancel keeps the session; the confirmation's own button deletes it.
  await page.getByRole("button", { name: "Delete session" }).click();
  const ask = page.getByRole("dialog", { name: /^Delete session/ });
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  await expect(sessions.getByTestId(`session-ext-a-${tag}`)).toBeVisible();
  await page.getByRole("button", { name: "Delete session" }).click();
  await ask.getByRole("button", { name: "Delete session" }).click();
  await expect(sessions.getByTestId(`session-ext-a-${tag}`)).toHaveCount(0);
  await expect(sessions.getByTestId(`session-ext-b-${tag}`)).toBeVisible();

  // Gone for the API too, and the memory with it.
  const left = await request.get(`/api/v1/chatmessage/${flow.id}?sessionId=ext-a-${tag}`, { headers: basic });
  expect(await left.json()).toEqual([]);
  const again = await predict(`ext-a-${tag}`, "What is my name?", { authorization: `Bearer ${key}` });
  expect((await again.json()).text).not.toContain("Ada");
});

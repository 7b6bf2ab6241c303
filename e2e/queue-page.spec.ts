import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn, snap } from "./helpers";
import { adminAuth, createChatflow, resetModel } from "./fixtures/widget-support";

// Issue 38, point 11: the Queue page says in a builder's words what each count means and why the
// page is empty in embedded mode (the server process runs the work); operator details stay folded.

type QueueCounts = { name: string; completed: number };

test.beforeEach(async ({ request }) => resetModel(request));

test("the Queue page explains embedded mode and counts a finished test run as done", async ({ page, request }) => {
  const raw = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../flows/conversation.json"), "utf8"));
  const flowId = await createChatflow(request, { name: `Queue page ${Date.now()}`, graph: raw.graph });
  const created = await request.post(`/api/v1/chatflows/${flowId}/tests`, {
    headers: adminAuth,
    data: { name: "Answers", question: "Hello?", expectations: [{ type: "status", value: 200 }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const queuesNow = async () =>
    ((await (await request.get("/api/v1/admin/queue", { headers: adminAuth })).json()).queues as QueueCounts[]) ?? [];
  const before = (await queuesNow()).find((q) => q.name === "chatflow-test-run")?.completed ?? 0;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto("/queue");
  await expect(page.getByRole("heading", { level: 1, name: "Queue" })).toBeVisible();
  await expect(page.getByTestId("queue-mode-note")).toContainText("does all the work in its own process");
  await expect(page.getByTestId("queue-mode-note")).toContainText("Chat answers and document uploads run while");
  const legend = page.getByTestId("queue-legend");
  await expect(legend).toContainText("Waitingaccepted, not started yet");
  await expect(legend).toContainText("Failedstopped after its last retry");
  // Operator details (raw queue names) are folded away.
  const details = page.getByTestId("queue-operator-details");
  await expect(details).not.toHaveAttribute("open");
  await expect(details.getByRole("table")).toBeHidden();
  if ((await queuesNow()).length === 0) {
    // Nothing ran in this server yet (this spec alone): the page says so in plain words.
    await expect(page.getByTestId("queue-empty")).toHaveText(
      "Nothing has run in the background since the server started.",
    );
    await snap(page, "queue-empty-1440");
  }

  // A test run: a background job of this process, counted as done once it finished.
  const started = await request.post(`/api/v1/chatflows/${flowId}/tests/run`, { headers: adminAuth, data: {} });
  expect(started.status(), await started.text()).toBe(202);
  const { runId } = await started.json();
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/v1/chatflows/${flowId}/tests/runs/${runId}`, { headers: adminAuth })).json())
          .status,
    )
    .not.toMatch(/queued|running/);
  const runs = page.getByRole("region", { name: "Test runs" });
  await expect(runs).toContainText("Runs of a chatflow's test cases");
  await expect(runs.locator("dt", { hasText: "Done" }).locator("xpath=following-sibling::dd")).toHaveText(
    String(before + 1),
    { timeout: 15_000 },
  );
  await expect(page.getByTestId("queue-empty")).toHaveCount(0);
  await snap(page, "queue-1440");

  await details.locator("summary").click();
  await expect(details.getByRole("cell", { name: "chatflow-test-run", exact: true })).toBeVisible();
  await expect(details).toContainText("MODE=queue");

  await page.setViewportSize({ width: 390, height: 844 });
  await details.locator("summary").click();
  await expect(runs).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await snap(page, "queue-390");
});

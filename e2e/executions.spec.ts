import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { cspViolations, signIn, snap } from "./helpers";
import { adminAuth, createChatflow } from "./fixtures/widget-support";

// Issue 32, point 6: the studio's Executions view. An agentflow's runs are listed (status, started,
// duration, session) and filtered by status; one run shows its steps in order with their input and
// output; a run waiting at Human Input is approved or rejected (with feedback) from there; a run is
// deleted. The path a run took is lit on its flow's canvas (the version it ran): each step with its
// status in words, the steps not reached marked so, the edges taken drawn apart; a step clicked there
// shows its input and output. Reached from the studio nav and from the agentflow's editor, at 1440
// and 390 px wide.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

const node = (id: string, type: string, inputs: Record<string, unknown>, x: number) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { inputs },
});
const edge = (source: string, output: string, target: string) => ({
  id: `${source}-${output}-${target}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:input`,
});

/** Start → Human Input → proceed: "Refund sent.", reject: the feedback. No model: every answer is fixed. */
const GRAPH = {
  nodes: [
    node("start", "startAgentflow", { startState: [{ key: "order", value: "42" }] }, 0),
    node("approve", "humanInputAgentflow", { humanInputDescription: "Refund order 42?" }, 350),
    node("sent", "directReplyAgentflow", { directReplyMessage: "Refund sent." }, 700),
    node("refused", "directReplyAgentflow", { directReplyMessage: "Not sent: {{approve}}" }, 700),
  ],
  edges: [edge("start", "output", "approve"), edge("approve", "proceed", "sent"), edge("approve", "reject", "refused")],
};

/** Starts a run of the agentflow in a new chat; it pauses at Human Input. */
async function pausedRun(request: APIRequestContext, flowId: string, chatId: string): Promise<string> {
  const res = await request.post(`/api/v1/prediction/${flowId}`, {
    headers: adminAuth,
    data: { question: `Refund please (${chatId})`, chatId },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { executionId: string; action?: unknown };
  expect(body.action).toBeTruthy();
  return body.executionId;
}

async function expectNoAxeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious).toEqual([]);
}

/** Whether the page is wider than the window (a phone would scroll sideways). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test("1440 wide: listed from the nav, filtered by status, a paused run approved with feedback, then deleted", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const flowId = await createChatflow(request, { name: `Refunds ${Date.now()}`, type: "AGENTFLOW", graph: GRAPH });
  const paused = await pausedRun(request, flowId, `e2e-approve-${Date.now()}`);
  // A second run, decided through the API: finished.
  const other = `e2e-done-${Date.now()}`;
  const done = await pausedRun(request, flowId, other);
  const resumed = await request.post(`/api/v1/prediction/${flowId}`, {
    headers: adminAuth,
    data: { chatId: other, humanInput: { type: "proceed", startNodeId: "approve" } },
  });
  expect(resumed.status(), await resumed.text()).toBe(200);

  await signIn(page);
  await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Executions" }).click();
  await expect(page).toHaveURL(/\/executions$/);
  const list = page.getByRole("list", { name: "Executions" });
  await expect(list.getByTestId(`execution-${paused}`)).toContainText("Waiting for approval");
  await expect(list.getByTestId(`execution-${done}`)).toContainText("Finished");
  // Start, Human Input waiting, Human Input answered, the reply.
  await expect(list.getByTestId(`execution-${done}`)).toContainText("4 steps");

  await page.getByLabel("Status").selectOption("paused");
  await expect(list.getByTestId(`execution-${done}`)).toHaveCount(0);
  await expect(list.getByTestId(`execution-${paused}`)).toBeVisible();
  await snap(page, "executions-list-1440");
  await expectNoAxeViolations(page);

  await list.getByTestId(`execution-${paused}`).click();
  await expect(page).toHaveURL(new RegExp(`/executions/${paused}$`));
  await expect(page.getByTestId("execution-status")).toHaveText("Waiting for approval");
  const steps = page.getByRole("list", { name: "Steps" });
  await expect(steps.getByRole("listitem")).toHaveCount(2);
  await expect(steps.getByRole("listitem").nth(0)).toContainText("start");
  await expect(steps.getByTestId("step-approve")).toContainText("waiting");
  await expect(page.getByText("Refund order 42?").first()).toBeVisible();
  const canvas = page.getByTestId("run-canvas");
  await expect(page.getByTestId("run-canvas-version")).toContainText("the one this run ran");
  await expect(canvas.getByTestId("run-node-start")).toHaveAttribute("data-run-status", "finished");
  await expect(canvas.getByTestId("run-node-approve")).toHaveAttribute("data-run-status", "paused");
  await expect(canvas.getByTestId("run-node-approve")).toContainText("Waiting");
  await expect(canvas.getByTestId("run-node-sent")).toHaveAttribute("data-run-status", "not-reached");
  await snap(page, "execution-paused-1440");
  await expectNoAxeViolations(page);

  await page.getByLabel("Feedback (optional)").fill("looks right");
  await page.getByRole("button", { name: "Proceed" }).click();
  await expect(page.getByTestId("execution-status")).toHaveText("Finished");
  await expect(steps.getByRole("listitem")).toHaveCount(4);
  await expect(steps.getByTestId("step-approve")).toHaveCount(2);
  await expect(steps.getByTestId("step-approve").nth(1)).toContainText("finished");
  const sent = steps.getByTestId("step-sent");
  await expect(sent).toContainText("finished");
  await expect(sent.getByText("Refund sent.")).toBeVisible();
  await expect(steps.getByTestId("step-refused")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Proceed" })).toHaveCount(0);

  // The path on the canvas: the steps it visited finished, the reject branch not reached (in words,
  // not colour alone), the proceed edge taken and the reject edge not.
  for (const id of ["start", "approve", "sent"]) {
    await expect(canvas.getByTestId(`run-node-${id}`)).toHaveAttribute("data-run-status", "finished");
    await expect(canvas.getByTestId(`run-node-${id}`).getByTestId("run-node-status")).toHaveText("✓Finished");
  }
  await expect(canvas.getByTestId("run-node-refused")).toHaveAttribute("data-run-status", "not-reached");
  await expect(canvas.getByTestId("run-node-refused").getByTestId("run-node-status")).toHaveText("○Not reached");
  await expect(page.getByTestId("run-path-summary")).toContainText("3 of 4 steps reached");
  await expect(canvas.locator('.react-flow__edge[data-id="start-output-approve"]')).toHaveClass(/run-taken/);
  await expect(canvas.locator('.react-flow__edge[data-id="approve-proceed-sent"]')).toHaveClass(/run-taken/);
  await expect(canvas.locator('.react-flow__edge[data-id="approve-reject-refused"]')).toHaveClass(/run-not-taken/);
  // A step clicked on the canvas shows what went in and came out of it in this run.
  await canvas.getByTestId("run-node-sent").getByRole("button").click();
  const detail = page.getByTestId("run-node-detail");
  await expect(detail.getByTestId("run-node-entry-sent")).toHaveCount(1);
  await expect(detail.getByTestId("run-node-entry-sent").getByText("Refund sent.")).toBeVisible();
  await canvas.getByTestId("run-node-approve").getByRole("button").click();
  // Waiting, then answered: both of its entries, the answer's feedback in its output.
  await expect(detail.getByTestId("run-node-entry-approve")).toHaveCount(2);
  await expect(detail.getByTestId("run-node-entry-approve").nth(1)).toContainText("looks right");
  await canvas.getByTestId("run-node-refused").getByRole("button").click();
  await expect(detail).toContainText("This step did not run in this run.");
  await snap(page, "execution-finished-1440");
  await expectNoAxeViolations(page);

  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Delete run" }).click();
  await expect(page).toHaveURL(new RegExp(`/executions\\?agentflowId=${flowId}$`));
  await expect(page.getByRole("list", { name: "Executions" }).getByTestId(`execution-${done}`)).toBeVisible();
  await expect(page.getByTestId(`execution-${paused}`)).toHaveCount(0);
  const gone = await request.get(`/api/v1/executions/${paused}`, { headers: adminAuth });
  expect(gone.status()).toBe(404);
});

test("390 wide: from the agentflow's editor to its runs; a paused run rejected with feedback", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const flowId = await createChatflow(request, {
    name: `Phone refunds ${Date.now()}`,
    type: "AGENTFLOW",
    graph: GRAPH,
  });
  const paused = await pausedRun(request, flowId, `e2e-reject-${Date.now()}`);

  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("toolbar", { name: "Editor" }).getByRole("link", { name: "Executions" }).click();
  await expect(page).toHaveURL(new RegExp(`/executions\\?agentflowId=${flowId}$`));
  const row = page.getByRole("list", { name: "Executions" }).getByTestId(`execution-${paused}`);
  await expect(row).toContainText("Waiting for approval");
  expect(await overflows(page)).toBe(false);
  await snap(page, "executions-list-390");
  await expectNoAxeViolations(page);

  await row.click();
  await expect(page.getByTestId("execution-status")).toHaveText("Waiting for approval");
  await page.getByLabel("Feedback (optional)").fill("order already refunded");
  await page.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByTestId("execution-status")).toHaveText("Finished");
  const refused = page.getByRole("list", { name: "Steps" }).getByTestId("step-refused");
  await expect(refused.getByText("Not sent: order already refunded")).toBeVisible();
  await expect(page.getByTestId("step-sent")).toHaveCount(0);
  // On a phone the canvas comes under the steps; the reject branch is the path taken.
  const canvas = page.getByTestId("run-canvas");
  await expect(canvas.getByTestId("run-node-refused")).toHaveAttribute("data-run-status", "finished");
  await expect(canvas.getByTestId("run-node-sent")).toHaveAttribute("data-run-status", "not-reached");
  await expect(canvas.locator('.react-flow__edge[data-id="approve-reject-refused"]')).toHaveClass(/run-taken/);
  await expect(canvas.locator('.react-flow__edge[data-id="approve-proceed-sent"]')).toHaveClass(/run-not-taken/);
  const stepsBox = await page.getByRole("list", { name: "Steps" }).boundingBox();
  const canvasBox = await canvas.boundingBox();
  expect(canvasBox!.y).toBeGreaterThan(stepsBox!.y + stepsBox!.height);
  expect(canvasBox!.width).toBeLessThanOrEqual(390);
  await canvas.getByTestId("run-node-refused").getByRole("button").click();
  await expect(
    page
      .getByTestId("run-node-detail")
      .getByTestId("run-node-entry-refused")
      .getByText("Not sent: order already refunded"),
  ).toBeVisible();
  expect(await overflows(page)).toBe(false);
  await snap(page, "execution-rejected-390");
  await expectNoAxeViolations(page);
});

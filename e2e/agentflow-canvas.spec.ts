import { expect, test, type Page } from "@playwright/test";
import { cspViolations, signIn, snap } from "./helpers";

// Issue 32, point 8: an agentflow opens in the editor with its own palette, a handle per Condition
// branch plus Else, Human Input's proceed/reject, a Loop's target, an Iteration holding its steps;
// and the test chat answers a paused run with Approve.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

const node = (
  id: string,
  type: string,
  inputs: Record<string, unknown>,
  x: number,
  y: number,
  parentNode?: string,
) => ({
  id,
  type,
  position: { x, y },
  ...(parentNode ? { parentNode } : {}),
  data: { inputs },
});
const edge = (source: string, output: string, target: string, input = "input") => ({
  id: `${source}-${output}-${target}-${input}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});

/** Start → LLM → Condition: "refund" → Human Input (proceed: reply, reject: loop back), "hello" → reply, else → Iteration → reply. */
const GRAPH = {
  nodes: [
    node("start", "startAgentflow", {}, 0, 0),
    node("model", "chatOpenAICompatible", { model: "stub-model", temperature: 0 }, 0, 400),
    node("llm", "llmAgentflow", { llmMessages: [{ role: "system", content: "Answer briefly." }] }, 350, 0),
    node(
      "cond",
      "conditionAgentflow",
      {
        conditions: [
          { type: "string", value1: "{{question}}", operation: "contains", value2: "refund" },
          { type: "string", value1: "{{question}}", operation: "contains", value2: "hello" },
        ],
      },
      700,
      0,
    ),
    node("approve", "humanInputAgentflow", { humanInputDescription: "Send this refund?" }, 1050, 0),
    node("sent", "directReplyAgentflow", { directReplyMessage: "Refund sent." }, 1400, 0),
    node("again", "loopAgentflow", { loopBackToNode: "llm", maxLoopCount: 2 }, 1400, 300),
    node("hello", "directReplyAgentflow", { directReplyMessage: "Hello to you." }, 1050, 450),
    node("each", "iterationAgentflow", { iterationInput: '["one", "two"]' }, 1050, 800),
    node("item", "directReplyAgentflow", { directReplyMessage: "Item {{$iteration}}" }, 300, 60, "each"),
    node("other", "directReplyAgentflow", { directReplyMessage: "Something else." }, 1900, 800),
  ],
  edges: [
    edge("start", "output", "llm"),
    edge("model", "chatModel", "llm", "model"),
    edge("llm", "output", "cond"),
    edge("cond", "branch0", "approve"),
    edge("cond", "branch1", "hello"),
    edge("cond", "else", "each"),
    edge("approve", "proceed", "sent"),
    edge("approve", "reject", "again"),
    edge("each", "output", "other"),
  ],
};

async function createAgentflow(page: Page, baseURL: string): Promise<string> {
  const res = await page.request.post("/api/v1/chatflows", {
    headers: { origin: baseURL },
    data: { name: `Refund router ${Date.now()}`, type: "AGENTFLOW", graph: GRAPH },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test("an agentflow opens with its own palette, branch handles, loop target and iteration group", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const id = await createAgentflow(page, baseURL!);
  // Listed apart: under Agentflows, not under Chatflows.
  await page.getByRole("tab", { name: "Agentflows" }).click();
  const list = page.getByRole("list", { name: "Agentflows" });
  await expect(list.getByRole("link", { name: /Refund router/ }).first()).toBeVisible();
  await snap(page, "agentflow-list-1440");

  await page.goto(`/chatflows/${id}`);
  const palette = page.getByRole("complementary", { name: "Node palette" });
  await expect(palette.getByTestId("palette-conditionAgentflow")).toBeVisible();
  await expect(palette.getByTestId("palette-humanInputAgentflow")).toBeVisible();
  await expect(palette.getByTestId("palette-chatOpenAICompatible")).toBeVisible();
  // A chatflow's chains are not an agentflow's steps.
  await expect(palette.getByTestId("palette-llmChain")).toHaveCount(0);
  await expect(palette.getByTestId("palette-toolAgent")).toHaveCount(0);

  const cond = page.locator('.react-flow__node[data-id="cond"]');
  await expect(cond.locator(".react-flow__handle.source")).toHaveCount(3);
  await expect(cond.getByText("1. {{question}} contains refund")).toBeVisible();
  await expect(cond.getByRole("img", { name: "Else output" })).toBeVisible();
  const human = page.locator('.react-flow__node[data-id="approve"]');
  await expect(human.getByRole("img", { name: "Proceed output" })).toBeVisible();
  await expect(human.getByRole("img", { name: "Reject output" })).toBeVisible();
  await expect(page.locator('.react-flow__node[data-id="again"]').getByTestId("loop-target")).toHaveText("↩ to llm");
  await expect(page.locator('.react-flow__edge[data-id="loop-back:again"]')).toHaveCount(1);
  // The step inside the Iteration is drawn inside its frame.
  await expect(page.locator('.react-flow__node[data-id="item"]')).toBeVisible();
  const frame = await page.locator('.react-flow__node[data-id="each"]').boundingBox();
  const item = await page.locator('.react-flow__node[data-id="item"]').boundingBox();
  expect(frame && item).toBeTruthy();
  expect(item!.x).toBeGreaterThanOrEqual(frame!.x);
  expect(item!.y).toBeGreaterThanOrEqual(frame!.y);
  expect(item!.x + item!.width).toBeLessThanOrEqual(frame!.x + frame!.width + 1);
  expect(item!.y + item!.height).toBeLessThanOrEqual(frame!.y + frame!.height + 1);
  // A valid flow: no problems listed.
  await expect(page.locator('[data-invalid="true"]')).toHaveCount(0);
  await snap(page, "agentflow-editor-1440");

  // The test chat: a refund pauses at Human Input; Approve resumes the same chat down "proceed".
  await page.getByRole("button", { name: "Test chat", exact: true }).click(); // closed on a first visit
  const chat = page.getByRole("complementary", { name: "Test chat" });
  await chat.getByRole("textbox", { name: "Message" }).fill("please refund order 42");
  await chat.getByRole("button", { name: "Send" }).click();
  await expect(chat.getByRole("button", { name: "Approve" })).toBeVisible();
  await expect(chat.getByRole("button", { name: "Reject" })).toBeVisible();
  // The paused answer's steps, collapsed: each node, how it ended; a click shows the node on the canvas.
  const pausedSteps = chat.getByTestId("flow-steps").first();
  await expect(pausedSteps.locator("summary")).toHaveText("Steps (4)");
  await pausedSteps.locator("summary").click();
  const steps = pausedSteps.getByRole("list", { name: "Steps" }).locator("li");
  await expect(steps).toHaveCount(4);
  expect(
    await steps.evaluateAll((li) => li.map((l) => [l.getAttribute("data-node"), l.getAttribute("data-status")])),
  ).toEqual([
    ["start", "FINISHED"],
    ["llm", "FINISHED"],
    ["cond", "FINISHED"],
    ["approve", "STOPPED"],
  ]);
  await expect(steps.last()).toContainText("paused");
  await steps.nth(2).getByRole("button").click();
  await expect(page.locator('.react-flow__node[data-id="cond"]')).toHaveClass(/selected/);
  // Human Input asks for feedback unless the node turns it off: it goes with the decision.
  const feedback = chat.getByRole("textbox", { name: "Feedback (optional)" });
  await feedback.fill("Checked the receipt");
  await snap(page, "agentflow-chat-paused-1440");
  const resumed = page.waitForRequest((r) => r.url().includes("/api/v1/prediction/") && r.method() === "POST");
  await chat.getByRole("button", { name: "Approve" }).click();
  expect((await resumed).postDataJSON().humanInput).toEqual({
    type: "proceed",
    startNodeId: "approve",
    feedback: "Checked the receipt",
  });
  await expect(chat.getByTestId("chat-answer").last()).toHaveText("Refund sent.");
  await expect(chat.getByTestId("chat-decided")).toContainText("Feedback: Checked the receipt");
  // The resumed answer's steps are the ones after the pause (the run reports all of them).
  const after = chat.getByTestId("flow-steps").last();
  await after.locator("summary").click();
  const afterNodes = await after.locator("li").evaluateAll((li) => li.map((l) => l.getAttribute("data-node")));
  expect(afterNodes.at(-1)).toBe("sent");
  expect(afterNodes).not.toContain("llm");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.locator('.react-flow__node[data-id="cond"]')).toBeVisible();
  await snap(page, "agentflow-editor-390");
});

test("New agentflow creates an AGENTFLOW with a Start node", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole("tab", { name: "Agentflows" }).click();
  const name = `Fresh agentflow ${Date.now()}`;
  await page.getByLabel("New agentflow").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/chatflows\/[^/]+$/);
  await expect(page.locator('.react-flow__node[data-id="startAgentflow_0"]')).toBeVisible();
  await expect(page.getByTestId("palette-startAgentflow")).toBeVisible();
  const listed = await page.request.get("/api/v1/chatflows?type=AGENTFLOW");
  expect(((await listed.json()) as { name: string }[]).map((f) => f.name)).toContain(name);
});

import { expect, type Page, test } from "@playwright/test";
import { cspViolations, signIn, snap } from "./helpers";
import { adminAuth, createChatflow } from "./fixtures/widget-support";

// Issue 32, point 8: in an agentflow step's text fields, `{{` opens what can be referenced there
// (question, history, the flow state Start declares, the run's ids, the steps upstream, global
// variables), picked with the keyboard (arrows, Enter or Tab; Escape closes) or the mouse; a
// reference to nothing is the field's problem as it is typed. At 1440 and 390 px wide.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

const node = (id: string, type: string, inputs: Record<string, unknown>, x: number) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { inputs },
});

/** Start (flow state `order`) → Direct Reply "Hello". */
const GRAPH = {
  nodes: [
    node("start", "startAgentflow", { startState: [{ key: "order", value: "42" }] }, 0),
    node("reply", "directReplyAgentflow", { directReplyMessage: "Hello" }, 350),
  ],
  edges: [
    {
      id: "start-reply",
      source: "start",
      sourceHandle: "start:out:output",
      target: "reply",
      targetHandle: "reply:in:input",
    },
  ],
};

/** The Direct Reply's Message field, once its code editor has replaced the plain text area. */
async function messageEditor(page: Page) {
  const editor = page.locator('.react-flow__node[data-id="reply"] .cm-content');
  await expect(editor).toBeVisible();
  await expect(editor).toHaveAttribute("aria-label", "Message");
  return editor;
}

async function openFlow(page: Page, flowId: string) {
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  return messageEditor(page);
}

test("1440 wide: {{ offers the names of this step; keyboard and mouse pick; a bad reference is a problem at once", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const varName = `apiBase${Date.now()}`;
  const created = await request.post("/api/v1/variables", { headers: adminAuth, data: { name: varName, value: "x" } });
  expect(created.status(), await created.text()).toBe(201);
  const flowId = await createChatflow(request, { name: `Vars ${Date.now()}`, type: "AGENTFLOW", graph: GRAPH });
  const editor = await openFlow(page, flowId);

  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" {{");
  const list = page.getByRole("listbox");
  await expect(list).toBeVisible();
  for (const name of ["question", "chat_history", "$flow.state.order", "$flow.sessionId", `$vars.${varName}`])
    await expect(list.getByRole("option", { name: new RegExp(`^${name.replace(/\$/g, "\\$")}`) })).toHaveCount(1);
  // Not offered: the step itself, $iteration outside an Iteration.
  await expect(list.getByRole("option", { name: /^reply/ })).toHaveCount(0);
  await expect(list.getByRole("option", { name: /^\$iteration/ })).toHaveCount(0);
  await snap(page, "variables-autocomplete-1440");

  // Keyboard: narrow down, Enter picks; the braces are closed.
  await page.keyboard.type("$flow.st");
  await expect(list.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(editor).toHaveText("Hello {{$flow.state.order}}");

  // Escape closes the list without writing anything.
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" {{");
  await expect(list).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Delete");
  await page.keyboard.press("Delete");
  await page.keyboard.press("Backspace");
  await expect(editor).toHaveText("Hello {{$flow.state.order}}");

  // Tab picks too; then the mouse.
  await page.keyboard.type(` {{$vars.${varName}`);
  await expect(list.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Tab");
  await expect(editor).toHaveText(`Hello {{$flow.state.order}} {{$vars.${varName}}}`);
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" {{");
  await list.getByRole("option", { name: /^question/ }).click();
  await expect(editor).toHaveText(`Hello {{$flow.state.order}} {{$vars.${varName}}} {{question}}`);
  const card = page.locator('.react-flow__node[data-id="reply"] article');
  await expect(card).toHaveAttribute("aria-label", /node$/);
  await expect(card).not.toHaveAttribute("data-invalid", "true");

  // A reference to nothing: the field's problem as it is typed, and gone once fixed.
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" {{$flow.state.nope");
  await page.keyboard.press("Escape");
  const problem = page.locator("#reply-directReplyMessage-error");
  await expect(problem).toContainText("Uses {{$flow.state.nope}}, which names nothing in this flow.");
  await expect(card).toHaveAttribute("data-invalid", "true");
  await snap(page, "variables-problem-1440");
  for (let i = 0; i < "$flow.state.nope".length; i++) await page.keyboard.press("Backspace");
  await page.keyboard.press("Escape");
  await page.keyboard.type("question");
  await expect(problem).toHaveCount(0);
  await expect(card).not.toHaveAttribute("data-invalid", "true");
});

test("390 wide: the list opens inside the window and a pick writes the name", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const flowId = await createChatflow(request, { name: `Phone vars ${Date.now()}`, type: "AGENTFLOW", graph: GRAPH });
  const editor = await openFlow(page, flowId);
  await editor.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" {{");
  const list = page.getByRole("listbox");
  await expect(list).toBeVisible();
  // Narrowed by what is typed after the braces; the first match is selected.
  await page.keyboard.type("state");
  // The braces close as they are typed, so `{{state}}` names nothing and the field turns invalid while
  // the list is open: the list must stay, its first match selected, for Enter to pick it.
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await snap(page, "variables-autocomplete-390");
  await expect(list.getByRole("option", { selected: true })).toHaveAccessibleName(/^\$flow\.state\.order/);
  await page.keyboard.press("Enter");
  await expect(editor).toHaveText("Hello {{$flow.state.order}}");
});

import { expect, test } from "@playwright/test";
import { signIn, snap } from "./helpers";
import { MODEL_STUB as STUB } from "./servers";

// The editor's Tests tab: a builder adds cases, runs them against the draft through the scripted
// model and sees pass/fail per case with the actual answer and expected → got; an answer of the
// test chat is saved as a test in one click.

test("add a case, run the tests, see pass and fail; save a chat exchange as a test", async ({ page, request }) => {
  test.setTimeout(120_000);
  await request.post(`${STUB}/__admin/reset`);
  await signIn(page);
  const flows = await (await page.request.get("/api/v1/chatflows")).json();
  const listed = flows.find((f: { name: string }) => f.name === "Conversation");
  const example = await (await page.request.get(`/api/v1/chatflows/${listed.id}`)).json();
  // The example flows come with test cases of their own.
  const shipped = await (await page.request.get(`/api/v1/chatflows/${example.id}/tests`)).json();
  expect(shipped.map((c: { name: string }) => c.name)).toContain("Remembers the name from the history");
  // A copy of it to work on, so other specs' edits of the example do not matter.
  const created = await page.request.post("/api/v1/chatflows", {
    data: { name: `Tests tab ${Date.now().toString(36)}`, graph: example.graph },
  });
  const flow = await created.json();

  await page.goto(`/chatflows/${flow.id}`);
  await page.getByRole("button", { name: "Tests", exact: true }).click();
  const panel = page.getByRole("complementary", { name: "Tests" });
  await expect(panel).toContainText("No test cases yet");

  // A case that passes: the stub greets back.
  await panel.getByRole("button", { name: "Add case" }).click();
  let form = panel.getByRole("form", { name: "New test case" });
  await form.getByLabel("Name").fill("Greets back");
  await form.getByLabel("Question").fill("Hello! How are you today?");
  await form.getByRole("button", { name: "+ Expectation" }).click();
  await form.getByLabel("Text").fill("Hello");
  await form.getByRole("button", { name: "Save case" }).click();
  await expect(panel.getByTestId("test-case")).toHaveCount(1);

  // A case that fails: the answer says nothing about bananas.
  await panel.getByRole("button", { name: "Add case" }).click();
  form = panel.getByRole("form", { name: "New test case" });
  await form.getByLabel("Name").fill("Talks about bananas");
  await form.getByLabel("Question").fill("Hello! How are you today?");
  await form.getByRole("button", { name: "+ Expectation" }).click();
  await form.getByLabel("Text").fill("banana");
  await form.getByRole("button", { name: "Save case" }).click();
  await expect(panel.getByTestId("test-case")).toHaveCount(2);
  // A case says what it checks without opening Edit, and counts its checks in good English.
  const bananas = panel.locator('[data-case-name="Talks about bananas"]');
  await expect(bananas.locator("summary")).toContainText("2 checks");
  await bananas.locator("summary").click();
  await expect(bananas.getByRole("list", { name: "Checks of Talks about bananas" })).toContainText(
    'the answer contains "banana"',
  );
  await bananas.locator("summary").click();

  // A bad pattern is refused with the server's sentence.
  await panel.getByRole("button", { name: "Add case" }).click();
  form = panel.getByRole("form", { name: "New test case" });
  await form.getByLabel("Name").fill("Bad pattern");
  await form.getByLabel("Question").fill("Hi");
  await form.getByLabel("Expectation type").first().selectOption("answerMatches");
  await form.getByLabel("Pattern").fill("([a-z]");
  await form.getByRole("button", { name: "Save case" }).click();
  await expect(form.getByRole("alert")).toContainText("is not a valid regular expression");
  await form.getByRole("button", { name: "Cancel" }).click();

  await panel.getByRole("button", { name: "Run tests" }).click();
  const summary = panel.getByTestId("run-summary");
  await expect(summary).toHaveAttribute("data-status", "finished", { timeout: 60_000 });
  await expect(summary).toContainText("1 passed, 1 failed");
  const passing = panel.locator('[data-case-name="Greets back"]');
  const failing = panel.locator('[data-case-name="Talks about bananas"]');
  await expect(passing.locator("summary [data-verdict]")).toHaveText("pass");
  await expect(failing.locator("summary [data-verdict]")).toHaveText("fail");
  // The failing case opens on its result: expected → got, and the actual answer.
  await expect(failing.getByTestId("expectation-result").first()).toContainText(
    'Expected the answer contains "banana"',
  );
  await expect(failing.getByTestId("expectation-result").first()).toContainText("got Hello!");
  await expect(failing.getByTestId("test-answer")).toContainText("Hello!");
  await snap(page, "chatflow-tests-run");

  // Require passing tests: publishing version 1 (one failing case) is refused, naming the case.
  // A controlled checkbox that follows the saved setting: click, then wait for the save to show it
  // (Playwright's check() fails when the state has not changed by the time the click returns).
  await panel.getByLabel("Require passing tests to publish").click();
  await expect(panel.getByLabel("Require passing tests to publish")).toBeChecked();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("publish-test-run")).toContainText("Tests of version 1: 1 passed, 1 failed");
  await dialog.getByRole("button", { name: "Publish version 1" }).click();
  await expect(dialog.getByRole("alert")).toContainText('failing: "Talks about bananas"');
  await snap(page, "chatflow-tests-publish-refused");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  // Save a real exchange of the test chat as a test.
  await page.getByRole("button", { name: "Test chat" }).click();
  const chat = page.getByRole("complementary", { name: "Test chat" });
  await chat.getByLabel("Message", { exact: true }).fill("Hi, my name is Ada.");
  await chat.getByRole("button", { name: "Send" }).click();
  await expect(chat.getByTestId("chat-answer")).toContainText("Nice to meet you, Ada");
  await chat.getByRole("button", { name: "Save as test" }).click();
  await expect(chat.getByRole("status").filter({ hasText: "Saved as test" })).toBeVisible();
  await page.getByRole("button", { name: "Tests", exact: true }).click();
  const saved = panel.locator('[data-case-name="Hi, my name is Ada."]');
  await expect(saved).toBeVisible();
  const cases = await (await page.request.get(`/api/v1/chatflows/${flow.id}/tests`)).json();
  const fromChat = cases.find((c: { name: string }) => c.name === "Hi, my name is Ada.");
  expect(fromChat.expectations[0]).toEqual({ type: "status", value: 200 });
  // The answer's words a builder would keep: not its pleasantry ("Nice"), not the name the question gave.
  const words = fromChat.expectations
    .filter((e: { type: string }) => e.type === "answerContains")
    .map((e: { value: string }) => e.value);
  expect(words).toEqual(["meet"]);

  // Save an exchange as a test from the Conversations view: the studio chat's stored session.
  await page.goto(`/chatflows/${flow.id}/conversations`);
  await page.getByRole("list", { name: "Sessions" }).getByRole("button").first().click();
  const transcript = page.getByRole("list", { name: "Transcript" });
  await expect(transcript).toContainText("Nice to meet you, Ada!");
  await transcript.getByRole("button", { name: "Save as test" }).click();
  await expect(transcript.getByRole("status").filter({ hasText: "Saved as test" })).toBeVisible();
  const after = await (await page.request.get(`/api/v1/chatflows/${flow.id}/tests`)).json();
  expect(after.filter((c: { name: string }) => c.name === "Hi, my name is Ada.")).toHaveLength(2);
  await page.goto(`/chatflows/${flow.id}`);
  await expect(page.getByRole("button", { name: "Tests", exact: true })).toHaveAttribute("aria-pressed", "true");

  // Opened again (the tab was left open, so it opens with the editor), the tab shows the newest run, and cases saved since have no verdict yet.
  await expect(panel.getByTestId("run-summary")).toContainText("1 passed, 1 failed");
  await expect(panel.locator('[data-case-name="Hi, my name is Ada."] [data-verdict]')).toHaveCount(0);

  // Narrow screens: the Tests tab takes the whole width.
  await page.setViewportSize({ width: 390, height: 800 });
  await snap(page, "chatflow-tests-390");
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// Issue 14: the templates gallery offers Flowise templates: the ones shipped in flows/flowise (Flowise's
// format, imported by the Flowise import when used) and any Flowise template file the builder picks —
// here Flowise's two marketplace templates, read where they are kept (never copied into the project).
const FIXTURES = path.resolve(import.meta.dirname, "../../shared/fixtures/flowise");

async function openGallery(page: import("@playwright/test").Page) {
  await page.goto("/chatflows");
  await page.getByRole("button", { name: "New from template" }).click();
  return page.getByRole("dialog", { name: "Templates" });
}

test("a shipped Flowise template becomes a new chatflow through the import and opens", async ({ page }) => {
  await signIn(page);
  const gallery = await openGallery(page);
  const flowise = gallery.getByRole("list", { name: "Flowise templates" });
  await expect(flowise.getByText("Translator")).toBeVisible();
  await page.screenshot({ path: "test-results/flowise-templates-gallery.png", fullPage: true });
  await flowise.getByRole("button", { name: "Use Flowise template Translator" }).click();
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("toolbar", { name: "Editor" }).getByRole("heading")).toHaveText("Translator");
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await expect(page.getByRole("article", { name: "LLM Chain node" })).toBeVisible();
});

test("a Flowise marketplace template file picked in the gallery becomes a chatflow; one we cannot import says why", async ({
  page,
}) => {
  await signIn(page);
  let gallery = await openGallery(page);
  // An export with a setting we have no equivalent of (ChatOpenAI's strict tool calling on).
  const strict = JSON.parse(readFileSync(path.join(FIXTURES, "conversation.json"), "utf8"));
  strict.nodes.find((n: { id: string }) => n.id === "chatOpenAI_0").data.inputs.strictToolCalling = true;
  await gallery.getByLabel("Flowise template file").setInputFiles({
    name: "strict-conversation.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(strict)),
  });
  const refusal = gallery.getByRole("alert", { name: "Cannot be imported" });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText("nothing was saved");
  await page.screenshot({ path: "test-results/flowise-templates-refused.png", fullPage: true });
  await expect(page).toHaveURL(/\/chatflows$/);

  await page.keyboard.press("Escape");
  gallery = await openGallery(page);
  await gallery
    .getByLabel("Flowise template file")
    .setInputFiles(path.join(FIXTURES, "marketplace-conversation-chain.json"));
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("toolbar", { name: "Editor" }).getByRole("heading")).toHaveText(
    "marketplace-conversation-chain",
  );
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
});

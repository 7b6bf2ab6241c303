import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cspViolations, signIn } from "./helpers";

// The studio's "Import from Flowise" dialog with chatflows exported from Flowise 3.1.4
// (../shared/fixtures/flowise, read where they are kept).
const FIXTURES = path.resolve(process.cwd(), "../shared/fixtures/flowise");
const fixture = (file: string) => readFileSync(path.join(FIXTURES, file));

test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

test("a studio user imports a Flowise chatflow, and sees what cannot be imported", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Import from Flowise" }).click();
  const dialog = page.getByRole("dialog", { name: "Import from Flowise" });

  // The exported conversation with a setting we have no equivalent of (ChatOpenAI's strict tool
  // calling turned on): refused, listing it; nothing saved.
  const strict = JSON.parse(fixture("conversation.json").toString("utf8"));
  strict.nodes.find((n: { id: string }) => n.id === "chatOpenAI_0").data.inputs.strictToolCalling = true;
  await dialog.getByLabel("Flowise file").setInputFiles({
    name: "Strict Chatflow.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(strict)),
  });
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  const refusal = dialog.getByRole("alert", { name: "Cannot be imported" });
  await expect(refusal).toContainText("nothing was saved");
  await expect(refusal.getByTestId("dropped-inputs")).toContainText("strictToolCalling");
  await expect(refusal.getByTestId("dropped-inputs")).toContainText("OpenAI (chatOpenAI_0)");

  // The product-search agent imports; the credentials to connect are listed.
  await dialog.getByLabel("Flowise file").setInputFiles({
    name: "Product search Chatflow.json",
    mimeType: "application/json",
    buffer: fixture("product-search-agent.json"),
  });
  await dialog.getByLabel("Name (optional)").fill("Imported product search");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog.getByText("Imported as “Imported product search”.")).toBeVisible();
  await expect(dialog.getByTestId("import-warnings")).toContainText("Connect a credential");
  await dialog.getByRole("link", { name: "Open “Imported product search”" }).click();
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await expect(page.locator(".react-flow__node")).toHaveCount(6);
  await expect(page.locator(".react-flow__edge")).toHaveCount(5);
});

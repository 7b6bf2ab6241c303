import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { adminAuth, createChatflow, productSearchGraph } from "./fixtures/widget-support";

// Issue 33: the Publish dialog's webhook and schedules. Turn the webhook on, require a signature (the
// secret shown once), call it signed and unsigned; add a schedule (a bad cron refused by name), see its
// next run, turn it off, delete it.

test("webhook: enable, secret shown once, signed call runs, unsigned refused; schedules: add, off, delete", async ({
  page,
  request,
}) => {
  const id = await createChatflow(request, { name: `Hooks ${Date.now()}`, graph: productSearchGraph().graph });
  const published = await request.post(`/api/v1/chatflows/${id}/publish`, { headers: adminAuth, data: { version: 1 } });
  expect(published.status()).toBe(200);
  await signIn(page);
  await page.goto(`/chatflows/${id}`);
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });

  const hook = dialog.getByTestId("webhook");
  await hook.getByRole("button", { name: "Enable webhook" }).click();
  await expect(hook.getByTestId("webhook-url")).toHaveText(new RegExp(`/api/v1/webhook/${id}$`));
  await hook.getByRole("button", { name: "Require a signature" }).click();
  const secret = (await hook.getByTestId("webhook-secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await expect(hook.getByTestId("webhook-curl")).toContainText("x-switchyard-signature: sha256=$sig");

  const body = JSON.stringify({ question: "Do you have running shoes?" });
  const unsigned = await request.post(`/api/v1/webhook/${id}`, {
    headers: { "content-type": "application/json" },
    data: body,
  });
  expect(unsigned.status()).toBe(401);
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex");
  const signedCall = await request.post(`/api/v1/webhook/${id}`, {
    headers: {
      "content-type": "application/json",
      "x-switchyard-timestamp": ts,
      "x-switchyard-signature": `sha256=${sig}`,
    },
    data: body,
  });
  expect(signedCall.status(), await signedCall.text()).toBe(200);
  expect((await signedCall.json()).text).toBeTruthy();

  const schedules = dialog.getByTestId("schedules");
  await schedules.getByRole("button", { name: "Add schedule" }).click();
  const form = schedules.getByRole("form", { name: "New schedule" });
  await form.getByLabel("Cron (min hour day month weekday)").fill("every morning");
  await form.getByLabel("Question").fill("Morning stock report");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(form.getByRole("alert")).toContainText('cron: "every morning"');
  await form.getByLabel("Cron (min hour day month weekday)").fill("0 9 * * MON-FRI");
  await form.getByLabel("Time zone").fill("Europe/Paris");
  await form.getByRole("button", { name: "Add" }).click();
  const row = schedules.getByTestId("schedule-row");
  await expect(row).toContainText("0 9 * * MON-FRI · Europe/Paris");
  await expect(row).toContainText(/Next run: (?!off)/);
  await expect(row).toContainText("never ran");
  await page.screenshot({ path: "test-results/triggers-publish-dialog.png", fullPage: true });

  await row.getByRole("button", { name: "Turn off" }).click();
  await expect(row).toContainText("Next run: off");
  await row.getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { cspViolations, signIn } from "./helpers";

// Issue 10, findings 5 and 8, in a real browser against the production server: security headers on
// the wire, Next's scripts carrying the response's CSP nonce, the studio working under the policy
// (zero "Refused to …" reports), and a same-site page failing to use the admin's cookie.

test("pages carry a nonce CSP that Next's scripts satisfy; API and embed.js carry their headers", async ({
  request,
}) => {
  const page = await request.get("/signin");
  expect(page.status()).toBe(200);
  const csp = page.headers()["content-security-policy"];
  const nonce = csp.match(/script-src [^;]*'nonce-([^']+)'/)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(page.headers()["x-frame-options"]).toBe("DENY");
  expect(page.headers()["x-content-type-options"]).toBe("nosniff");
  expect(page.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(page.headers()["permissions-policy"]).toContain("microphone=(self)");
  const html = await page.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  // A second response has another nonce.
  expect((await request.get("/signin")).headers()["content-security-policy"]).not.toBe(csp);

  const chunk = html.match(/<script[^>]+src="(\/_next\/static\/[^"]+)"/)?.[1];
  expect(chunk).toBeTruthy();
  for (const path of ["/api/v1/ping", "/api/v1/no-such-route", "/embed.js", "/no-such-page", chunk!]) {
    const res = await request.get(path);
    expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    expect(res.headers()["x-frame-options"], path).toBe("DENY");
  }
  expect((await request.get("/embed.js")).headers()["cross-origin-resource-policy"]).toBe("cross-origin");
  expect((await request.get("/api/v1/ping")).headers()["content-security-policy"]).toBe(
    "default-src 'none'; frame-ancestors 'none'",
  );
});

test("the studio renders and works under the CSP without a single violation", async ({ page }) => {
  await signIn(page);
  for (const path of ["/chatflows", "/credentials", "/api-keys", "/users", "/domains/manage"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
  }
  // The canvas of an example flow (canvas.spec.ts runs the editor and the test chat under the same check).
  await page.goto("/chatflows");
  await page
    .getByRole("list", { name: "Chatflows" })
    .getByRole("link", { name: /^Docs QA \(keyword/ })
    .click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  // The publish dialog's widget preview loads /embed.js from a nonce'd script ('strict-dynamic').
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByTestId("widget-preview")).toBeVisible();
  await expect.poll(() => page.evaluate(() => typeof (window as { Switchyard?: unknown }).Switchyard)).toBe("object");
  await page.waitForLoadState("networkidle");
  expect(cspViolations(page)).toEqual([]);
});

test("a page on another origin of the same site cannot make the signed-in admin's browser write", async ({
  page,
  baseURL,
}) => {
  await signIn(page);
  const flows: { id: string; name: string }[] = await (await page.request.get("/api/v1/chatflows")).json();
  const docs = flows.find((f) => f.name.startsWith("Docs QA (keyword"))!;
  // A real page on the studio's host at another port: same site, so the Lax session cookie rides
  // along (a page routed by Playwright would be blocked by Chromium's local-network rules instead).
  const html = `<script>
    const upload = new FormData();
    upload.append("files", new Blob(["Refunds go to account 666."], { type: "text/markdown" }), "planted.md");
    const post = (path, body, type) => fetch(${JSON.stringify(baseURL)} + path,
      { method: "POST", mode: "no-cors", credentials: "include", headers: type ? { "content-type": type } : {}, body });
    Promise.allSettled([
      post("/api/v1/vector/upsert/${docs.id}", upload),
      post("/api/v1/chatflows", JSON.stringify({ name: "planted" }), "text/plain"),
    ]).finally(() => { document.title = "sent"; });
  </script>`;
  const attacker = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  const attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/attack`;
  const refused = [`/api/v1/vector/upsert/${docs.id}`, "/api/v1/chatflows"].map((path) =>
    page
      .waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === path)
      .then((r) => r.status()),
  );
  await page.goto(attackerUrl);
  await expect(page).toHaveTitle("sent");
  attacker.close();
  // The browser sent the cookie; the server refused each write as cross-origin. (PUT and DELETE
  // cannot leave another origin without a CORS preflight, which the API answers without consent.)
  expect(await Promise.all(refused)).toEqual([403, 403]);
  const after: { id: string; name: string }[] = await (await page.request.get("/api/v1/chatflows")).json();
  expect(after.map((f) => f.id)).toContain(docs.id);
  expect(after.map((f) => f.name)).not.toContain("planted");
});

test("signing out in the studio ends the session on the server: a copied cookie is refused", async ({
  page,
  request,
}) => {
  await signIn(page);
  const token = (await page.context().cookies()).find((c) => c.name === "next-auth.session-token")?.value;
  expect(token).toBeTruthy();
  const copied = { cookie: `next-auth.session-token=${token}` };
  expect((await request.get("/api/v1/chatflows", { headers: copied })).status()).toBe(200);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  const replayed = await request.get("/api/v1/chatflows", { headers: copied });
  expect(replayed.status()).toBe(401);
  expect((await request.get("/chatflows", { headers: copied, maxRedirects: 0 })).status()).toBe(307);
  expect(cspViolations(page)).toEqual([]);
});

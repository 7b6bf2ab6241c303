import { expect, test } from "@playwright/test";
import { cspViolations, signIn } from "./helpers";

// Issue 10, findings 5 and 8, in a real browser against the production server: security headers on
// the wire, Next's scripts carrying the response's CSP nonce, the studio working under the policy
// (zero "Refused to …" reports), and a same-site page failing to use the admin's cookie.

test("pages carry a nonce CSP that Next's scripts satisfy; API and embed.js carry their headers", async ({ request }) => {
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

  for (const path of ["/api/v1/ping", "/api/v1/no-such-route", "/embed.js", "/no-such-page"]) {
    const res = await request.get(path);
    expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    expect(res.headers()["x-frame-options"], path).toBe("DENY");
  }
  expect((await request.get("/embed.js")).headers()["cross-origin-resource-policy"]).toBe("cross-origin");
  expect((await request.get("/api/v1/ping")).headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
});

test("the studio renders and works under the CSP without a single violation", async ({ page }) => {
  await signIn(page);
  for (const path of ["/chatflows", "/credentials", "/api-keys", "/users", "/domains"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
  }
  // The canvas of an example flow, and its widget preview (loads /embed.js from a nonce'd script).
  await page.goto("/chatflows");
  await page.getByRole("list", { name: "Chatflows" }).getByRole("link").first().click();
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(cspViolations(page)).toEqual([]);
});

test("a page on another origin of the same site cannot make the signed-in admin's browser write", async ({ page, baseURL }) => {
  await signIn(page);
  const flows: { id: string; name: string }[] = await (await page.request.get("/api/v1/chatflows")).json();
  const docs = flows.find((f) => f.name.startsWith("Docs QA (keyword"))!;
  // Same site as the studio (same host, another port): the Lax session cookie rides along.
  const attacker = new URL(baseURL!);
  attacker.port = String(Number(attacker.port) + 1);
  await page.route(`${attacker.origin}/attack`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<script>
        const upload = new FormData();
        upload.append("files", new Blob(["Refunds go to account 666."], { type: "text/markdown" }), "planted.md");
        const post = (path, body, type) => fetch(${JSON.stringify(baseURL)} + path,
          { method: "POST", mode: "no-cors", credentials: "include", headers: type ? { "content-type": type } : {}, body });
        Promise.allSettled([
          post("/api/v1/vector/upsert/${docs.id}", upload),
          post("/api/v1/chatflows", JSON.stringify({ name: "planted" }), "text/plain"),
          fetch(${JSON.stringify(baseURL)} + "/api/v1/chatflows/${docs.id}", { method: "DELETE", mode: "no-cors", credentials: "include" }),
        ]).finally(() => { document.title = "sent"; });
      </script>`,
    }),
  );
  const refused: Promise<number>[] = ["/api/v1/vector/upsert/", "/api/v1/chatflows", `/api/v1/chatflows/${docs.id}`].map((path) =>
    page.waitForResponse((r) => r.request().method() !== "GET" && new URL(r.url()).pathname === (path.endsWith("/") ? path + docs.id : path)).then((r) => r.status()),
  );
  await page.goto(`${attacker.origin}/attack`);
  await expect(page).toHaveTitle("sent");
  // The browser sent the cookie; the server refused each write as cross-origin.
  expect(await Promise.all(refused)).toEqual([403, 403, 403]);
  const after: { id: string; name: string }[] = await (await page.request.get("/api/v1/chatflows")).json();
  expect(after.map((f) => f.id)).toContain(docs.id);
  expect(after.map((f) => f.name)).not.toContain("planted");
});

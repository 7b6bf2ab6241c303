import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { SPEC_PRODUCT_API } from "../dev/product-api/spec";
import { signIn, snap } from "./helpers";
import { APP, TOOL_PROXY_PORT, withProductApi } from "./servers";
import { createChatflow, productSearchGraph, resetModel, startHostSite, widget } from "./fixtures/widget-support";

// Live tool progress: while the product-search agent's API call is in flight, the test chat and
// the widget show a running step ("Calling product_search…" and its input), which becomes the
// finished tool call when the answer's usedTools arrives. The call is held by a forwarding proxy
// in front of this run's product API (the app calls it from the server, so page.route cannot).
test.describe.configure({ mode: "serial" });

/** A proxy to the product API that holds every request until `release()`; `hold()` closes it again. */
async function startHoldingProxy(target: string) {
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  let arrived = 0;
  const server = http.createServer((req, res) => {
    arrived++;
    void gate.then(() => {
      const upstream = http.request(
        new URL(req.url ?? "/", target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    });
  });
  // The one extra port the app may call (playwright.config.ts allows it in OUTBOUND_ALLOW_HOSTS).
  await new Promise<void>((resolve) => server.listen(TOOL_PROXY_PORT, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived: () => arrived,
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    release: () => open(),
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let proxy: Awaited<ReturnType<typeof startHoldingProxy>>;
let shop: Awaited<ReturnType<typeof startHostSite>>;
let flowId = "";

test.beforeAll(async ({ request }) => {
  // withProductApi maps the spec's fixed address to this run's product API: the proxy forwards there.
  proxy = await startHoldingProxy(withProductApi(SPEC_PRODUCT_API));
  shop = await startHostSite(APP);
  const { graph, chatbotConfig, overrideAllowList } = productSearchGraph();
  const proxied = JSON.parse(JSON.stringify(graph).replaceAll(withProductApi(SPEC_PRODUCT_API), proxy.url));
  flowId = await createChatflow(request, {
    name: `Tool progress ${Date.now()}`,
    graph: proxied,
    overrideAllowList,
    isPublic: true,
    allowedOrigins: [shop.origin],
    chatbotConfig: { ...chatbotConfig, title: "Gadget Shop assistant" },
  });
});
test.afterAll(async () => Promise.all([proxy?.close(), shop?.close()]));
test.beforeEach(async ({ request }) => resetModel(request));
test.afterEach(() => proxy.release());

test("the test chat shows a running step while the tool runs, then the finished tool call", async ({ page }) => {
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Test chat", exact: true }).click(); // closed on a first visit
  const panel = page.getByRole("complementary", { name: "Test chat" });
  proxy.hold();
  const before = proxy.arrived();
  await panel.getByLabel("Message", { exact: true }).fill("Find me a laptop under 1500 in Germany");
  await panel.getByRole("button", { name: "Send" }).click();

  const step = panel.getByTestId("running-tool");
  await expect(step).toBeVisible();
  await expect(step).toHaveAttribute("data-state", "running");
  await expect(step).toContainText("Calling product_search…");
  await expect(step).toContainText("laptop");
  await expect(panel.getByTestId("used-tool")).toHaveCount(0);
  // The step shows when the tool starts; its API request follows (the chain first asks the model).
  await expect.poll(() => proxy.arrived()).toBeGreaterThan(before);
  await snap(page, "test-chat-tool-running");

  proxy.release();
  await expect(panel.getByTestId("used-tool").first()).toContainText("product_search");
  await expect(step).toHaveCount(0);
  await expect(panel.getByTestId("chat-answer").last()).toContainText("Laptop", { timeout: 30_000 });
  await expect(panel.getByLabel("Answer streaming")).toHaveCount(0);
  // Issue 38, point 3: the finished call lists the request it made: method, URL, status, time.
  const request = panel.getByTestId("used-tool").first().getByTestId("tool-requests").getByRole("listitem");
  await expect(request).toHaveCount(1);
  await expect(request).toContainText(/GET\s*http:\/\/127\.0\.0\.1:\d+\/public\/ai\/v0\/products\?.*countryCode=DE/);
  await expect(request).toContainText(/200 · \d+ ms/);
  await snap(page, "test-chat-tool-requests");
});

test("the widget shows the same running step to a visitor, then the finished tool call", async ({ page }) => {
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  await w.launcher.click();
  proxy.hold();
  await w.input.fill("Find me a laptop under 1500 in Germany");
  await page.keyboard.press("Enter");

  const step = w.lastBot.locator(".step");
  await expect(step).toBeVisible();
  await expect(step).toHaveAttribute("data-tool", "product_search");
  await expect(step).toContainText("Calling product_search…");
  await expect(step.locator("code")).toContainText("laptop");
  await expect(w.lastBot.locator("details.tools")).toHaveCount(0);
  await snap(page, "widget-tool-running");

  proxy.release();
  await expect(w.lastBot.locator("details.tools summary")).toHaveText("Used tool: product_search");
  await expect(step).toHaveCount(0);
  await expect(w.lastBot).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  // Nothing of the running step is kept with the conversation: a reload shows only the finished call.
  await page.reload();
  await w.launcher.click();
  await expect(w.lastBot.locator(".step")).toHaveCount(0);
  await expect(w.lastBot.locator("details.tools summary")).toHaveText("Used tool: product_search");
});

import { expect, type APIRequestContext, test } from "@playwright/test";
import { signIn } from "./helpers";
import { createChatflow, productSearchGraph } from "./fixtures/widget-support";

// Issue 33: the Publish dialog serves a flow as an MCP server: enable it, read the endpoint and the
// token (once), rotate the token (the old one is refused), disable it (the endpoint answers 404).

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
};

/** An MCP initialize request to the endpoint with this token: the status it answers. */
async function initialize(request: APIRequestContext, url: string, token: string) {
  const res = await request.post(url, {
    headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
    data: INITIALIZE,
  });
  return res.status();
}

test("enable MCP, copy the endpoint and the token shown once, rotate, disable", async ({ page, request }) => {
  const id = await createChatflow(request, { name: `MCP ${Date.now()}`, graph: productSearchGraph().graph });
  await signIn(page);
  await page.goto(`/chatflows/${id}`);
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });
  const section = dialog.getByTestId("mcp-server");

  await section.getByRole("button", { name: "Enable MCP" }).click();
  const endpoint = section.getByTestId("mcp-endpoint");
  await expect(endpoint).toHaveText(new RegExp(`/api/v1/mcp/${id}$`));
  const url = new URL((await endpoint.textContent())!).pathname;
  const token = section.getByTestId("mcp-token");
  await expect(token).toHaveText(/^sy_mcp_/);
  const first = (await token.textContent())!;
  expect(await initialize(request, url, first)).toBe(200);

  await section.getByRole("button", { name: "Rotate token" }).click();
  await expect(token).not.toHaveText(first);
  const second = (await token.textContent())!;
  expect(await initialize(request, url, first)).toBe(401);
  expect(await initialize(request, url, second)).toBe(200);

  // Reopened, the dialog shows the endpoint but never the token again.
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(section.getByTestId("mcp-endpoint")).toBeVisible();
  await expect(section.getByTestId("mcp-token")).toHaveCount(0);

  await section.getByRole("button", { name: "Disable MCP" }).click();
  await expect(section.getByRole("button", { name: "Enable MCP" })).toBeVisible();
  expect(await initialize(request, url, second)).toBe(404);
});

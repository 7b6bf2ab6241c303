import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { api, ApiError } from "./api";

/** fetch answering one status and body, and the calls it saw. */
function answer(status: number, body: unknown) {
  const fetch = vi.fn(async (_path: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const itemSchema = z.object({ id: z.string(), count: z.number().int() });

afterEach(() => vi.unstubAllGlobals());

describe("api", () => {
  it("returns the answer as the schema reads it (unknown fields dropped)", async () => {
    const fetch = answer(200, { id: "a", count: 2, extra: true });
    await expect(api("/api/v1/items/a", { schema: itemSchema })).resolves.toEqual({ id: "a", count: 2 });
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ method: "GET", credentials: "same-origin" });
  });

  it("sends a JSON body", async () => {
    const fetch = answer(201, { id: "b", count: 0 });
    await api("/api/v1/items", { method: "POST", body: { name: "b" }, schema: itemSchema });
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({
      method: "POST",
      body: '{"name":"b"}',
      headers: { "content-type": "application/json" },
    });
  });

  it("turns an answer that does not match the schema into an ApiError naming the call and the field", async () => {
    answer(200, { id: "a", count: "two" });
    const err = await api("/api/v1/items/a", { schema: itemSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 200, code: "invalid_response" });
    expect((err as ApiError).message).toMatch(/GET \/api\/v1\/items\/a .* at count: /);
  });

  it("turns an empty answer where one is expected into the same error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(api("/api/v1/items/a", { schema: itemSchema })).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("keeps the server's code and message for an error answer", async () => {
    answer(404, { error: { code: "not_found", message: "Item a not found." } });
    await expect(api("/api/v1/items/a", { schema: itemSchema })).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      message: "Item a not found.",
    });
  });
});

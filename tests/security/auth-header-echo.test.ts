import { describe, expect, it } from "vitest";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { fixtureKey } from "../../dev/callers";
import { call } from "../support/http";

// Issue 33, a sharp edge: an API key sent without `Bearer ` ("Authorization: <key>", as some Flowise
// clients do) was refused with a 401 that repeated the whole key in its body ("Unsupported
// Authorization scheme 'sy_…'"), where logs and proxies keep it. The refusal must not echo a secret.

describe("a 401 for an Authorization header without a scheme we take", () => {
  it("does not repeat the header's value, whatever it holds; a short unknown scheme is still named", async () => {
    const key = await fixtureKey("echo", ["predict", "chatflows"]);
    const flowiseStyle = "Zx9-lV2p_8mTq4wRkE0aYbC3dFgHjKlMnOpQrStUvWx"; // a Flowise key is one long token
    for (const value of [key, flowiseStyle, `${key} trailing`, "sy_", `Token ${key}`.slice(6)]) {
      for (const [handler, method, params] of [
        [chatflows.GET, "GET", {}],
        [prediction.POST, "POST", { id: "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b" }],
      ] as const) {
        const res = await call(handler, {
          method,
          params,
          headers: { authorization: value },
          ...(method === "POST" ? { body: { question: "hi" } } : {}),
        });
        expect(res.status, value).toBe(401);
        expect(res.text).not.toContain(value.split(/\s+/)[0]);
        expect(res.json.error.message).toMatch(/Bearer <API key>/);
      }
    }
    const named = await call(chatflows.GET, { headers: { authorization: "Digest abc" } });
    expect(named.status).toBe(401);
    expect(named.json.error.message).toBe("Unsupported Authorization scheme 'Digest'. Use Bearer <API key> or Basic.");
  });
});

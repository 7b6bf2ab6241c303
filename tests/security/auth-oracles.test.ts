// Issue 10, finding 8: Basic auth must not tell a right password from a wrong one, and key
// verification must do the same work for an unknown prefix as for a wrong secret. No timing is
// measured: the test counts the hash compares through the verifier seam.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, auth } from "../support/http";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as userById from "../../app/api/v1/users/[id]/route";
import { apiKeyVerifier } from "../../lib/http/authenticate";
import { apiKeyCache } from "../../lib/auth/key-cache";
import { insertApiKey } from "../../lib/db/queries/api-keys";
import { generateApiKey } from "../../lib/security/api-keys";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { userCaller } from "../../dev/callers";

const PASSWORD = "oracle-password-1";
let adminId: string;
let builderKey: string;

beforeAll(async () => {
  const admin = await setupFirstAdmin({ email: "admin@oracle.test", name: "Ada", password: PASSWORD });
  adminId = admin.id;
  const builder = await createUser({ email: "builder@oracle.test", name: "Bob", password: PASSWORD, role: "builder" });
  builderKey = (await createApiKey({ name: "b", permissions: ["chatflows"], chatflowIds: [] }, userCaller(builder)))
    .key;
});
afterEach(() => vi.restoreAllMocks());

let ip = 0;
/** Each attempt from its own client IP, so the failed-attempt limit does not answer instead. */
const basic = (email: string, password: string) =>
  call(chatflows.GET, { headers: { ...auth.basic(email, password), "x-switchyard-client-ip": `10.7.0.${++ip}` } });

describe("HTTP Basic", () => {
  it("answers the same 401 for a wrong password, an unknown e-mail and a builder's right password", async () => {
    const answers = await Promise.all([
      basic("admin@oracle.test", "wrong-password-1"),
      basic("nobody@oracle.test", PASSWORD),
      basic("builder@oracle.test", PASSWORD),
      basic("builder@oracle.test", "wrong-password-1"),
    ]);
    // The same answer, word for word; only each request's own id differs.
    const withoutId = (json: { error: Record<string, unknown> }) => ({ ...json.error, requestId: undefined });
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(withoutId(a.json)).toEqual(withoutId(answers[0].json));
    }
    expect((await basic("admin@oracle.test", PASSWORD)).status).toBe(200);
  });
});

describe("API key verification", () => {
  const ask = (key: string) => call(chatflows.GET, { headers: auth.bearer(key) });

  it("runs exactly one hash compare for an unknown prefix, a malformed key and a wrong secret", async () => {
    const compare = vi.spyOn(apiKeyVerifier, "matches");
    const prefix = builderKey.slice(0, 11);
    const cases = {
      unknownPrefix: `sy_ffffffff_${"A".repeat(43)}`,
      malformed: "not-a-key",
      wrongSecret: `${prefix}_${"B".repeat(43)}`,
    };
    for (const [name, key] of Object.entries(cases)) {
      compare.mockClear();
      const res = await ask(key);
      expect(res.status, name).toBe(401);
      expect(res.json.error.message, name).toBe("Invalid API key.");
      expect(compare, name).toHaveBeenCalledTimes(1);
    }
    compare.mockClear();
    expect((await ask(builderKey)).status).toBe(200);
    expect(compare).toHaveBeenCalledTimes(1);
  });

  it("caches an unknown prefix like a known one, so it costs no database read a wrong secret does not", async () => {
    const { key, prefix, keyHash } = generateApiKey();
    expect((await ask(key)).status).toBe(401);
    // Written behind the cache's back: the cached miss still answers, as a cached hit would.
    await insertApiKey({
      name: "late",
      prefix,
      keyHash,
      permissions: ["chatflows"],
      allChatflows: true,
      chatflowIds: [],
      createdById: adminId,
    });
    expect((await ask(key)).status).toBe(401);
    apiKeyCache.delete(prefix);
    expect((await ask(key)).status).toBe(200);
  });

  it("does not keep a deleted owner's key alive from the key cache", async () => {
    const leaver = await createUser({ email: "leaver@oracle.test", name: "Lee", password: PASSWORD, role: "admin" });
    const key = (await createApiKey({ name: "l", permissions: ["chatflows"], chatflowIds: [] }, userCaller(leaver)))
      .key;
    expect((await ask(key)).status).toBe(200); // now cached
    expect(
      (
        await call(userById.DELETE, {
          method: "DELETE",
          params: { id: leaver.id },
          headers: await auth.session(adminId),
        })
      ).status,
    ).toBe(200);
    expect((await ask(key)).status).toBe(401);
  });

  it("does not keep a demoted owner's admin-only permissions alive from the key cache", async () => {
    const former = await createUser({ email: "former@oracle.test", name: "Fay", password: PASSWORD, role: "admin" });
    const key = (await createApiKey({ name: "f", permissions: ["chatflows"], chatflowIds: [] }, userCaller(former)))
      .key;
    const listed = async () => (await ask(key)).json.map((f: { id: string }) => f.id);
    const adminFlow = await call(chatflows.POST, {
      method: "POST",
      headers: await auth.session(adminId),
      body: { name: "admin's" },
    });
    expect(await listed()).toContain(adminFlow.json.id); // cached with the admin role
    await call(userById.PUT, {
      method: "PUT",
      params: { id: former.id },
      headers: await auth.session(adminId),
      body: { role: "builder" },
    });
    expect(await listed()).not.toContain(adminFlow.json.id);
  });
});

import { describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import * as setup from "../../app/api/v1/setup/route";
import * as users from "../../app/api/v1/users/route";
import * as chatflows from "../../app/api/v1/chatflows/route";
import { ensureAdminFromEnv } from "../../lib/services/users";
import { getDb } from "../../lib/db/client";

describe("first run", () => {
  it("opens setup once: the first admin is created, later attempts get 409", async () => {
    expect((await call(setup.GET)).json).toEqual({ needsSetup: true });
    const weak = await call(setup.POST, {
      method: "POST",
      body: { email: "root@example.com", name: "Root", password: "short" },
    });
    expect(weak.status).toBe(400);
    expect(weak.json.error.message).toBe("Password must be at least 10 characters and not only spaces.");
    expect(weak.json.error.details[0].field).toBe("body.password");
    const created = await call(setup.POST, {
      method: "POST",
      body: { email: "Root@Example.com", name: "Root", password: "long-enough-1" },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ email: "root@example.com", role: "admin" });
    expect(created.json).not.toHaveProperty("passwordHash");
    const again = await call(setup.POST, {
      method: "POST",
      body: { email: "evil@example.com", name: "Evil", password: "long-enough-2" },
    });
    expect(again.status).toBe(409);
    expect((await call(setup.GET)).json).toEqual({ needsSetup: false });
    // ADMIN_EMAIL does nothing once a user exists.
    expect(
      await ensureAdminFromEnv({ ADMIN_EMAIL: "x@example.com", ADMIN_PASSWORD: "whatever-1", ADMIN_NAME: "X" }),
    ).toBeNull();
    const row = await (await getDb()).user.findUnique({ where: { email: "root@example.com" } });
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    expect(row?.passwordHash).not.toContain("long-enough-1");
  });

  it("lets an admin add a builder, who can then work with chatflows but not manage users", async () => {
    const admin = auth.basic("root@example.com", "long-enough-1");
    const added = await call(users.POST, {
      method: "POST",
      headers: admin,
      body: { email: "b@example.com", name: "B", password: "builder-pw-1" },
    });
    expect(added.status).toBe(201);
    expect(added.json.role).toBe("builder");
    const dup = await call(users.POST, {
      method: "POST",
      headers: admin,
      body: { email: "b@example.com", name: "B", password: "builder-pw-1" },
    });
    expect(dup.status).toBe(409);
    const session = await auth.session(added.json.id);
    expect((await call(chatflows.GET, { headers: session })).status).toBe(200);
    expect(
      (
        await call(users.POST, {
          method: "POST",
          headers: session,
          body: { email: "c@example.com", name: "C", password: "builder-pw-2" },
        })
      ).status,
    ).toBe(403);
  });
});

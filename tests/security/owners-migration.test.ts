// The owners migration keeps every row: chatflows and credentials go to the oldest admin, and a
// key whose user was already deleted (createdById NULL) is revoked: a key dies with its owner.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../lib/db/connection";
import { deployMigrations } from "../../lib/db/migrations";
import { migrationRoot } from "../support/migration-root";

const OWNERS = "20261123170657_owners";

describe("the owners migration", () => {
  it("gives existing chatflows and credentials to the oldest admin and revokes ownerless keys", {
    timeout: 120_000,
  }, async () => {
    const db = await openDatabase({ kind: "pglite", dataDir: null });
    const root = migrationRoot(OWNERS, false);
    try {
      await db.withEngineFactory((engine) => deployMigrations(engine, root));
      const user = (id: string, email: string, role: string, at: string) =>
        db.sql(
          `INSERT INTO "User" (id, email, name, "passwordHash", role, "createdAt", "updatedAt") VALUES ($1, $2, 'n', 'h', $3::"Role", $4, now())`,
          [id, email, role, at],
        );
      await user("00000000-0000-4000-8000-000000000001", "builder@m.test", "builder", "2020-01-01");
      await user("00000000-0000-4000-8000-000000000002", "old-admin@m.test", "admin", "2021-01-01");
      await user("00000000-0000-4000-8000-000000000003", "new-admin@m.test", "admin", "2022-01-01");
      await db.sql(
        `INSERT INTO "Chatflow" (id, name, graph, "updatedAt") VALUES ('00000000-0000-4000-8000-0000000000f1', 'kept', '{"nodes":[],"edges":[]}', now())`,
        [],
      );
      await db.sql(
        `INSERT INTO "Credential" (id, name, type, encrypted, "updatedAt") VALUES ('00000000-0000-4000-8000-0000000000c1', 'kept', 'openai', 'x', now())`,
        [],
      );
      const key = (id: string, prefix: string, owner: string | null) =>
        db.sql(
          `INSERT INTO "ApiKey" (id, name, prefix, "keyHash", permissions, "createdById") VALUES ($1, 'k', $2, $2, '{predict}', $3)`,
          [id, prefix, owner],
        );
      await key("00000000-0000-4000-8000-0000000000a1", "sy_aaaaaaaa", "00000000-0000-4000-8000-000000000001");
      await key("00000000-0000-4000-8000-0000000000a2", "sy_bbbbbbbb", null);

      expect(
        await db.withEngineFactory((engine) => deployMigrations(engine, migrationRoot(OWNERS, true, root))),
      ).toEqual([OWNERS]);
      expect(await db.sql(`SELECT name, "ownerId" FROM "Chatflow"`, [])).toEqual([
        { name: "kept", ownerId: "00000000-0000-4000-8000-000000000002" },
      ]);
      expect(await db.sql(`SELECT name, "ownerId", "sharedWithBuilders" FROM "Credential"`, [])).toEqual([
        { name: "kept", ownerId: "00000000-0000-4000-8000-000000000002", sharedWithBuilders: false },
      ]);
      const keys = await db.sql<{ prefix: string; revoked: boolean }>(
        `SELECT prefix, "revokedAt" IS NOT NULL AS revoked FROM "ApiKey" ORDER BY prefix`,
        [],
      );
      expect(keys).toEqual([
        { prefix: "sy_aaaaaaaa", revoked: false },
        { prefix: "sy_bbbbbbbb", revoked: true },
      ]);
      // A key now dies with its owner.
      await db.sql(`DELETE FROM "User" WHERE id = '00000000-0000-4000-8000-000000000001'`, []);
      expect(await db.sql(`SELECT prefix FROM "ApiKey" ORDER BY prefix`, [])).toEqual([{ prefix: "sy_bbbbbbbb" }]);
    } finally {
      await db.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

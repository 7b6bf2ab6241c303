import fs from "node:fs";
import path from "node:path";

/**
 * A project root holding the project's migrations before `migration` (and, with `including`, that
 * one too), for tests of what one migration does to existing rows. Made under node_modules (ignored
 * by git) so the schema engine's package still resolves from it; pass the same `root` again to add
 * the migration to a root made without it.
 */
export function migrationRoot(
  migration: string,
  including: boolean,
  root = fs.mkdtempSync(path.join(process.cwd(), "node_modules", ".sy-mig-")),
): string {
  const from = path.join(process.cwd(), "prisma");
  fs.mkdirSync(path.join(root, "prisma/migrations"), { recursive: true });
  fs.copyFileSync(path.join(from, "schema.prisma"), path.join(root, "prisma/schema.prisma"));
  fs.copyFileSync(
    path.join(from, "migrations/migration_lock.toml"),
    path.join(root, "prisma/migrations/migration_lock.toml"),
  );
  for (const dir of fs.readdirSync(path.join(from, "migrations"), { withFileTypes: true })) {
    if (!dir.isDirectory() || (dir.name >= migration && !(including && dir.name === migration))) continue;
    fs.cpSync(path.join(from, "migrations", dir.name), path.join(root, "prisma/migrations", dir.name), {
      recursive: true,
    });
  }
  return root;
}

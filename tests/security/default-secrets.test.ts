import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// Flowise shipped fixed default secrets, so every install could forge the others' sessions and
// decrypt their credentials. Here, with NEXTAUTH_SECRET and SECRETS_KEY unset, a fresh data
// directory gets its own random secret (kept, owner-only), and two directories never share one.

type Secrets = typeof import("../../lib/security/secrets");
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET,
  SECRETS_KEY: process.env.SECRETS_KEY,
};
const dirs: string[] = [];

/** The secrets module as a fresh server process on `dataDir` would load it (no secret settings). */
async function serverOn(dataDir: string): Promise<Secrets> {
  delete process.env.NEXTAUTH_SECRET;
  delete process.env.SECRETS_KEY;
  process.env.DATA_DIR = dataDir;
  vi.resetModules();
  (await import("../../lib/env")).resetEnvForTests();
  return import("../../lib/security/secrets");
}

function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-secrets-"));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  vi.resetModules();
  (await import("../../lib/env")).resetEnvForTests();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("default secrets", () => {
  it("creates a random session secret in a fresh data dir, owner-only, and keeps it", async () => {
    const dir = freshDataDir();
    const first = (await serverOn(dir)).sessionSecret();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const files = fs.readdirSync(dir);
    expect(files.length).toBe(1);
    const stat = fs.statSync(path.join(dir, files[0]));
    expect(stat.mode & 0o077).toBe(0);
    expect(fs.readFileSync(path.join(dir, files[0]), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    // A restart on the same data dir keeps signed-in users signed in.
    expect((await serverOn(dir)).sessionSecret()).toBe(first);
  });

  it("gives two data dirs different session secrets and credential keys", async () => {
    const a = await serverOn(freshDataDir());
    const sessionA = a.sessionSecret();
    const sealed = a.encryptJson({ apiKey: "sk-secret" });
    const b = await serverOn(freshDataDir());
    expect(b.sessionSecret()).not.toBe(sessionA);
    // A credential sealed by one install cannot be opened by another.
    expect(() => b.decryptJson(sealed)).toThrow();
    expect(a.decryptJson(sealed)).toEqual({ apiKey: "sk-secret" });
  });

  it("has no hard-coded secret in the sources: every secret comes from settings or the data dir", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const sources = ["lib", "app", "scripts", "instrumentation.ts", "next.config.mjs"].flatMap((p) =>
      sourceFiles(path.join(root, p)),
    );
    expect(sources.length).toBeGreaterThan(50);
    const hits = sources.flatMap((file) => {
      const text = fs.readFileSync(file, "utf8");
      // A literal given to a secret-like name: `secret: "…"`, `NEXTAUTH_SECRET ??= "…"`, `.default("…")` on a secret setting.
      const found = [
        ...text.matchAll(/\b(\w*(?:SECRET|secret|SECRETS_KEY)\w*)\s*(?:[:=]|\?\?=|\|\|=)\s*["'`][^"'`]{4,}["'`]/g),
      ];
      const defaults = [...text.matchAll(/\b(NEXTAUTH_SECRET|SECRETS_KEY)\s*:\s*z[^\n]*\.default\(/g)];
      return [...found, ...defaults].map((m) => `${path.relative(root, file)}: ${m[0]}`);
    });
    expect(hits).toEqual([]);
  });
});

function sourceFiles(p: string): string[] {
  if (!fs.existsSync(p)) return [];
  if (fs.statSync(p).isFile()) return [p];
  return fs.readdirSync(p, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name === "generated" || e.name.startsWith(".")) return [];
    const full = path.join(p, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [full] : [];
  });
}

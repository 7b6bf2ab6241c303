import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCUMENTED_ROUTES } from "@/app/api/v1/openapi.json/documented-routes";
import { openApiDocument } from "./document";

// The generated document passes Redocly's `recommended` rules and Spectral's `spectral:oas` ruleset
// with no error (issue 31, point 4). Warnings are printed, not failed: Spectral's
// oas3-operation-security-defined wants OAuth scopes where OpenAPI 3.1 lets any scheme list roles
// (our key permissions and "admin"), and neither a licence nor a contact exists to name.

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, "../../node_modules/.bin");
let dir: string;
let documentPath: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
  documentPath = path.join(dir, "openapi.json");
  fs.writeFileSync(documentPath, JSON.stringify(openApiDocument(DOCUMENTED_ROUTES), null, 2));
  fs.writeFileSync(path.join(dir, "redocly.yaml"), "extends:\n  - recommended\n");
  fs.writeFileSync(path.join(dir, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs a linter that exits non-zero on errors; its report is on stdout either way. */
async function lint(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(path.join(BIN, bin), args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stdout } = err as { stdout?: string };
    if (!stdout) throw err;
    return stdout;
  }
}

describe("the OpenAPI document, linted", () => {
  it("passes Redocly's recommended rules with no error", { timeout: 120_000 }, async () => {
    const out = await lint("redocly", ["lint", "openapi.json", "--config", "redocly.yaml", "--format", "json"]);
    const report = JSON.parse(out.slice(out.indexOf("{"))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems.filter((p) => p.severity === "error");
    const warnings = report.problems.filter((p) => p.severity !== "error");
    if (warnings.length)
      console.log(
        `redocly: ${warnings.length} warnings`,
        warnings.map((w) => w.ruleId),
      );
    expect(errors.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it("passes Spectral's oas ruleset with no error", { timeout: 120_000 }, async () => {
    const out = await lint("spectral", ["lint", "openapi.json", "--ruleset", ".spectral.yaml", "-f", "json", "-q"]);
    const results = JSON.parse(out.slice(out.indexOf("["))) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
    const errors = results.filter((r) => r.severity === 0);
    const warnings = results.filter((r) => r.severity > 0);
    if (warnings.length)
      console.log(`spectral: ${warnings.length} warnings`, [...new Set(warnings.map((w) => w.code))]);
    expect(errors.map((r) => `${r.code} ${r.path.join(".")}: ${r.message}`)).toEqual([]);
  });
});

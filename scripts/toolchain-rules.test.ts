// The "Format, lint and dependency rules" step of `npm test` must fail when it should: the repo's own
// Biome and dependency-cruiser configs, run on small crafted trees in a temp folder.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const made: string[] = [];
/** Each case starts a CLI or two (dependency-cruiser loads TypeScript: ~2 s on a busy machine). */
const SLOW = 30_000;

/** Writes `files` (path → text) into a new temp folder with the repo's configs copied in. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-rules-"));
  made.push(dir);
  fs.copyFileSync(path.join(root, "biome.jsonc"), path.join(dir, "biome.jsonc"));
  fs.copyFileSync(path.join(root, ".dependency-cruiser.cjs"), path.join(dir, ".dependency-cruiser.cjs"));
  const tsconfig = { compilerOptions: { moduleResolution: "bundler", module: "esnext", paths: { "@/*": ["./*"] } } };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function run(dir: string, command: string, args: string[]) {
  const out = spawnSync(bin(command), args, { cwd: dir, encoding: "utf8", timeout: 15_000 });
  return { status: out.status, output: `${out.stdout}${out.stderr}` };
}

/** Runs dependency-cruiser as `npm test` does; returns its exit status and the "rule: from → to" it names. */
function cruise(dir: string) {
  const out = run(dir, "depcruise", [".", "--config", ".dependency-cruiser.cjs", "--output-type", "err"]);
  const found = [...out.output.matchAll(/^\s*error ([\w-]+): (\S+) →\s+(\S+)/gm)].map(
    ([, rule, from, to]) => `${rule}: ${from} → ${to}`,
  );
  return { status: out.status, found: found.sort() };
}

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe("dependency rules", { timeout: SLOW }, () => {
  it("name every upward or sideways import, through relative paths and the @/ alias alike", () => {
    const dir = tree({
      "lib/http/route.ts": "export const route = 1;\n",
      "lib/services/chat.ts": 'import { route } from "../http/route";\nexport const chat = route;\n',
      "lib/services/keys.ts": 'import type { route } from "@/lib/http/route";\nexport type Keys = typeof route;\n',
      "lib/db/rows.ts": 'import { chat } from "../services/chat";\nexport const rows = chat;\n',
      "lib/flow/build.ts":
        'import { registry } from "../nodes/registry";\nimport { run } from "../nodes/llm-chain/runtime";\n' +
        "export const build = [registry, run];\n",
      "lib/nodes/registry.ts": "export const registry = 1;\n",
      "lib/nodes/llm-chain/runtime.ts": "export const run = 1;\n",
      "browser/canvas/view.ts": 'import { Panel } from "@/components/chat/Panel";\nexport const view = Panel;\n',
      "browser/client/api.ts": 'import { chat } from "@/lib/services/chat";\nexport const api = chat;\n',
      "common/schemas/chat.ts": 'import { chat } from "../../lib/services/chat";\nexport const schema = chat;\n',
      "common/schemas/role.ts": 'import { Role } from "@/lib/db/generated/enums";\nexport const role = Role;\n',
      "common/schemas/role-type.ts": 'import type { Role } from "@/lib/db/generated/enums";\nexport type R = Role;\n',
      "lib/db/generated/enums.ts": "export const Role = 1;\n",
      "components/chat/Panel.tsx": 'import { Button } from "../ui/Button";\nexport const Panel = Button;\n',
      "components/ui/Button.tsx": "export const Button = 1;\n",
      "components/canvas/Editor.tsx":
        'import { Panel } from "@/components/chat/Panel";\nimport { Button } from "@/components/ui/Button";\n' +
        "export const Editor = [Panel, Button];\n",
      "scripts/stub.ts": 'import { fake } from "../tests/support/fake";\nexport const stub = fake;\n',
      "tests/support/fake.ts": "export const fake = 1;\n",
      "lib/jobs/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "lib/jobs/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
      "widget/api.ts": 'import { chat } from "../lib/services/chat";\nexport const api = chat;\n',
      "widget/types.ts": 'import type { chat } from "../lib/services/chat";\nexport type Api = typeof chat;\n',
      "lib/services/chat.test.ts": 'import { Panel } from "@/components/chat/Panel";\nexport const t = Panel;\n',
    });
    const { status, found } = cruise(dir);
    expect(status).not.toBe(0);
    expect(found).toEqual(
      [
        "browser-not-to-server: browser/client/api.ts → lib/services/chat.ts",
        "browser-not-to-server: widget/api.ts → lib/services/chat.ts",
        "common-is-shared: common/schemas/chat.ts → lib/services/chat.ts",
        "common-only-types-of-enums: common/schemas/role.ts → lib/db/generated/enums.ts",
        "db-not-to-services: lib/db/rows.ts → lib/services/chat.ts",
        "flow-through-node-interface: lib/flow/build.ts → lib/nodes/llm-chain/runtime.ts",
        "lib-not-to-app-or-components: browser/canvas/view.ts → components/chat/Panel.tsx",
        "no-circular: lib/jobs/a.ts → lib/jobs/b.ts",
        "no-cross-feature-components: components/canvas/Editor.tsx → components/chat/Panel.tsx",
        "no-http-below-http: lib/services/chat.ts → lib/http/route.ts",
        "no-http-below-http: lib/services/keys.ts → lib/http/route.ts",
        "scripts-bench-not-to-tests: scripts/stub.ts → tests/support/fake.ts",
      ].sort(),
    );
  });

  it("pass a tree whose imports point down", () => {
    const dir = tree({
      "app/api/route.ts": 'import { chat } from "@/lib/http/chat";\nexport const GET = chat;\n',
      "lib/http/chat.ts": 'import { answer } from "../services/answer";\nexport const chat = answer;\n',
      "lib/services/answer.ts": 'import { row } from "../db/rows";\nexport const answer = row;\n',
      "lib/db/rows.ts": 'import { Row } from "@/common/schemas/row";\nexport const row = Row;\n',
      "common/schemas/row.ts":
        'import type { Role } from "@/lib/db/generated/enums";\nexport const Row = 1 as unknown as Role;\n',
      "lib/db/generated/enums.ts": "export type Role = number;\n",
      "components/chat/Panel.tsx":
        'import { Row } from "@/common/schemas/row";\nimport type { answer } from "@/lib/services/answer";\nexport const Panel = [Row] as unknown as typeof answer;\n',
    });
    expect(cruise(dir)).toEqual({ status: 0, found: [] });
  });
});

describe("format and lint", { timeout: SLOW }, () => {
  const check = (dir: string, file: string) => run(dir, "biome", ["check", "--vcs-enabled=false", file]).status;

  it("fail on a format difference or a lint error, pass clean code, skip generated code", () => {
    const dir = tree({
      "lib/format.ts": "const a = {b:1}\nexport default a\n",
      "lib/lint.ts":
        "export function f(items: number[]) {\n  return items.map((n) => {\n    if (n > 1) return n;\n  });\n}\n",
      "lib/clean.ts": 'export const a = { b: 1, c: "d" };\n',
      "lib/db/generated/client.ts": "const a = {b:1}\nexport default a\n",
    });
    expect(check(dir, "lib/format.ts")).toBe(1);
    expect(check(dir, "lib/lint.ts")).toBe(1);
    expect(check(dir, "lib/clean.ts")).toBe(0);
    expect(run(dir, "biome", ["check", "--vcs-enabled=false", "."]).output).not.toContain("lib/db/generated/client.ts");
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { nodeDefinitions } from "../../lib/nodes/registry";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { auth, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

// Flowise's worst advisories are remote code execution through nodes that run user-supplied
// JavaScript or Python (Custom Function, Custom Tool, If-Else Function, code interpreters) and
// through spec/JSON parsing that evaluates. Here the nodes that run code a user typed (the agentflow
// Custom Function, issue 32; the chatflow Custom JS Function and the Custom Tool, issue 34) run it only in lib/sandbox (QuickJS in
// WebAssembly on worker threads: no process, files or imports; network only through a fetch over the
// outbound guard when the node gives one; lib/sandbox/*.test.ts attack it), no other node runs code,
// and the sources that run flows hold no eval, Function constructor, vm or child process.

const ROOT = path.resolve(import.meta.dirname, "../..");
const PWNED = "__switchyardCodeRan";

let stub: ModelStub;
let key: string;

beforeAll(async () => {
  stub = await startServerModelStub();
  key = await fixtureKey("k", ["predict"]);
});
afterAll(() => stub.close());

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "__fixtures__" ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe("no custom code execution", () => {
  it("has no node type that runs code: no Function, Tool-from-code, If-Else function or interpreter", () => {
    // Whole words of the label and of the camelCase name ("Retrieval" is not "eval").
    const words = (d: (typeof nodeDefinitions)[number]) => `${d.name.replace(/([a-z])([A-Z])/g, "$1 $2")} ${d.label}`;
    const suspicious = nodeDefinitions.filter((d) =>
      /\b(function|code|python|javascript|js|script|exec|execute|eval|sandbox|interpreter|shell|command|mcp)\b/i.test(
        words(d),
      ),
    );
    // Execute Flow runs another saved flow (a graph of our nodes), not code: its name only says "execute".
    // MCP Tools calls a remote MCP server over HTTP through the outbound guard; it starts no command
    // (a Flowise stdio config is refused at import: tests/integration/mcp-tools.test.ts).
    // The Code Text Splitter splits source code as text at its language's boundaries (LangChain's
    // separators); it never runs it.
    expect(suspicious.map((d) => d.name).sort()).toEqual([
      "codeTextSplitter",
      "customFunction",
      "customFunctionAgentflow",
      "executeFlowAgentflow",
      "mcpTools",
    ]);
    const mcp = fs.readFileSync(path.join(ROOT, "lib/nodes/mcp-tools/client.ts"), "utf8");
    expect(mcp).not.toMatch(/stdio|child_process|spawn/);
    // ...and the nodes running code a user typed (the Custom Functions, the Custom Tool) hand it to
    // the sandbox, nowhere else.
    for (const folder of ["custom-function-agentflow", "custom-function", "custom-tool"]) {
      const runtime = fs.readFileSync(path.join(ROOT, `lib/nodes/${folder}/runtime.ts`), "utf8");
      expect(runtime, folder).toMatch(/from "\.\.\/\.\.\/sandbox"/);
      expect(runtime, folder).toContain("runInSandbox(");
    }
    for (const flowise of ["ifElseFunction", "pythonInterpreter", "codeInterpreterE2B", "customMCP"]) {
      expect(nodeDefinitions.map((d) => d.name)).not.toContain(flowise);
    }
  });

  it("has only reviewed `code`-typed params (a new one must be added here after checking it is never run)", () => {
    const codeParams = nodeDefinitions.flatMap((d) =>
      d.inputs
        .filter((i) => i.kind === "param" && (i as { type?: string }).type === "code")
        .map((i) => `${d.name}.${i.name}`),
    );
    // openApiChain.spec is parsed as YAML/JSON data, never run: shown below. The Custom Function's
    // and the Custom Tool's code runs only in lib/sandbox (above).
    expect(codeParams.sort()).toEqual([
      "customFunction.code",
      "customFunctionAgentflow.customFunctionJavascriptFunction",
      "customTool.code",
      "openApiChain.spec",
      "openApiToolkit.spec",
    ]);
  });

  it("holds no eval, Function constructor, vm, child process or eval-mode worker in the code that builds and runs flows", () => {
    const files = ["lib", "app"].flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(files.some((f) => f.includes(`lib${path.sep}nodes${path.sep}`))).toBe(true);
    const patterns: [string, RegExp][] = [
      ["eval", /(?<![\w.])eval\s*\(/],
      ["Function constructor", /\bnew\s+Function\s*\(|(?<![\w.])Function\s*\(\s*["'`]/],
      ["vm module", /["'](node:)?vm["']/],
      ["child process", /["'](node:)?child_process["']/],
      ["worker running a string", /\beval\s*:\s*true/],
      ["string timer", /\bset(Timeout|Interval)\s*\(\s*["'`]/],
    ];
    // One reviewed exception: the document parser pool forks our own worker file (a fixed path
    // under lib/vector/parse-worker/), never a string or a path a caller chose.
    // And the test-case expectations run a builder's regex under V8's time bound: the vm script is a
    // fixed literal that calls a closure of ours (the pattern is a RegExp, never code).
    const allowed = new Set([
      `lib/vector/parse-pool.ts: child process`,
      `lib/services/chatflow-tests/expectations.ts: vm module`,
    ]);
    const hits = files.flatMap((f) => {
      const text = fs.readFileSync(f, "utf8");
      return patterns.filter(([, re]) => re.test(text)).map(([what]) => `${path.relative(ROOT, f)}: ${what}`);
    });
    expect(hits.filter((h) => !allowed.has(h))).toEqual([]);
    const expectations = fs.readFileSync(path.join(ROOT, "lib/services/chatflow-tests/expectations.ts"), "utf8");
    expect(expectations.match(/\bvm\.\w+\(/g)).toEqual(["vm.runInNewContext("]);
    expect(expectations).toMatch(/vm\.runInNewContext\("fn\(\)", \{ fn \}, \{ timeout: MATCH_TIME_LIMIT_MS \}\)/);
    const pool = fs.readFileSync(path.join(ROOT, "lib/vector/parse-pool.ts"), "utf8");
    expect(pool.match(/\bfork\(/g)).toHaveLength(1);
    expect(pool).toMatch(/const WORKER_FILE = path\.join\("lib", "vector", "parse-worker", "[\w-]+\.mjs"\);/);
    expect(pool).toMatch(/import \{ fork, type ChildProcess \} from "node:child_process";/);
  });

  it("never runs what is typed into a `code` param: JavaScript, YAML function tags, prototype keys", async () => {
    const payloads = [
      `globalThis.${PWNED} = true; module.exports = {};`,
      `openapi: 3.0.0\ninfo: { title: t, version: "1" }\nservers: [{ url: "http://127.0.0.1:9" }]\npaths: !!js/function "function () { globalThis.${PWNED} = true }"`,
      `openapi: 3.0.0\ninfo: { title: t, version: "1" }\nx: !<tag:yaml.org,2002:js/eval> "globalThis.${PWNED} = true"\npaths: {}`,
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "t", version: "1" },
        paths: {},
        __proto__: { polluted: true },
        constructor: { prototype: { polluted: true } },
      }),
      `{"openapi":"3.0.0","info":{"title":"\${globalThis.${PWNED}=true}","version":"1"},"paths":{}}`,
    ];
    const flow = exampleFlow("openapi-chain-only.json");
    for (const spec of payloads) {
      const graph = structuredClone(flow.graph);
      for (const n of graph.nodes) if (n.type === "openApiChain") n.data.inputs.spec = spec;
      const id = (await createChatflow({ name: "code param", graph: graph as never }, systemCaller)).id;
      const res = await call(prediction.POST, {
        method: "POST",
        params: { id },
        headers: auth.bearer(key),
        body: { question: "Show me laptops" },
      });
      // A spec that is not an OpenAPI document is the builder's problem to fix: 4xx, never run.
      expect(res.status, `${spec}\n→ ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect((globalThis as Record<string, unknown>)[PWNED]).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});

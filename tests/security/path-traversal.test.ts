import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { docsExample } from "../support/docs-flows";
import { exampleFlow } from "../../dev/flows";
import { auth, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

// Flowise advisories: uploads and chat ids that climb out of the storage folder. File names from
// callers are display names only, ids with path characters are refused, and nothing is written
// outside the data directory. The data directory sits alone in a sandbox folder, so anything
// written beside it shows.

const MARK = `evil-${randomUUID().slice(0, 8)}`;
const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-traversal-"));
const dataDir = path.join(sandbox, "data");
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

/** Names that try to leave uploads/<chatflow>/ by every spelling. */
const EVIL_NAMES = [
  `../../${MARK}.txt`,
  `../../../../../../../../tmp/${MARK}.txt`,
  `..\\..\\${MARK}.txt`,
  `/tmp/${MARK}.txt`,
  `%2e%2e%2f%2e%2e%2f${MARK}.txt`,
  `uploads/../../${MARK}.txt`,
  `....//....//${MARK}.txt`,
];

let stub: ModelStub;
let key: string;
const flows: Record<string, string> = {};

beforeAll(async () => {
  stub = await startServerModelStub({ DATA_DIR: dataDir });
  const vision = exampleFlow("conversation.json", { allowImages: true });
  flows.vision = (await createChatflow({ name: "vision", graph: vision.graph as never }, systemCaller)).id;
  flows.docs = (
    await createChatflow({ name: "docs", graph: docsExample("docs-qa-keyword.json").graph as never }, systemCaller)
  ).id;
  key = await fixtureKey("k", ["predict", "upsert"]);
});
afterAll(async () => {
  await stub.close();
  fs.rmSync(sandbox, { recursive: true, force: true });
});

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Nothing beside the data dir, no upload outside uploads/<chatflow>/, no file named by the caller anywhere we can see. */
function expectNothingOutside() {
  expect(fs.readdirSync(sandbox)).toEqual(["data"]);
  const uploads = filesUnder(dataDir).filter((f) => f.startsWith(`uploads${path.sep}`) || f.includes(MARK));
  for (const f of uploads) expect(f).toMatch(/^uploads\/[0-9a-f-]{36}\/(documents\/)?[0-9a-f]{64}\.\w+$/);
  expect(filesUnder(dataDir).some((f) => f.includes(MARK))).toBe(false);
  expect(fs.existsSync(path.join("/tmp", `${MARK}.txt`))).toBe(false);
  expect(fs.existsSync(path.resolve(`${MARK}.txt`))).toBe(false);
}

describe("path traversal through upload names", () => {
  it("stores upserted files under generated names and keeps only a bare display name as the source", async () => {
    const form = new FormData();
    for (const [i, name] of EVIL_NAMES.entries())
      form.append("files", new Blob([`Refunds take ${i + 10} days. ${MARK}`]), name);
    const req = new Request(`http://127.0.0.1:3000/api/v1/vector/upsert/${flows.docs}`, {
      method: "POST",
      headers: auth.bearer(key),
      body: form,
    });
    const res = await upsert.POST(req, { params: Promise.resolve({ id: flows.docs }) });
    // Refusing such names would be as good as cleaning them; what matters is where bytes land.
    expect([200, 400, 413]).toContain(res.status);
    if (res.status === 200) {
      const rows = await (await getDb()).documentChunk.findMany({ where: { chatflowId: flows.docs } });
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.source).not.toMatch(/[/\\]|^\.\.?$|%2f/i);
      // The files were stored (seven different contents), inside the chatflow's folder.
      expect(filesUnder(path.join(dataDir, "uploads", flows.docs)).length).toBeGreaterThanOrEqual(EVIL_NAMES.length);
    }
    expectNothingOutside();
  });

  it("stores a prediction's image under a generated name whatever the name says", async () => {
    for (const name of EVIL_NAMES.map((n) => n.replace(/\.txt$/, ".png"))) {
      const res = await call(prediction.POST, {
        method: "POST",
        params: { id: flows.vision },
        headers: auth.bearer(key),
        body: {
          question: "What is this?",
          uploads: [{ type: "file", name, mime: "image/png", data: `data:image/png;base64,${PNG.toString("base64")}` }],
        },
      });
      expect(res.status, name).toBe(200);
      const row = await (await getDb()).chatMessage.findFirst({
        where: { chatId: res.json.chatId, role: "userMessage" },
      });
      const [file] = row!.fileUploads as { path: string; name: string }[];
      expect(file.name).not.toMatch(/[/\\]/);
      expect(path.resolve(dataDir, file.path).startsWith(path.join(dataDir, "uploads", flows.vision) + path.sep)).toBe(
        true,
      );
      expect(fs.existsSync(path.resolve(dataDir, file.path))).toBe(true);
    }
    expectNothingOutside();
  });
});

describe("path traversal through chat and session ids", () => {
  const SLASHED = ["../../x", "a/b", "..\\..\\x", "/etc/passwd", "%2e%2e%2fx", "x/../../y"];

  it("refuses a chatId or sessionId holding a path separator with 400, storing nothing", async () => {
    const db = await getDb();
    const before = await db.chatMessage.count();
    for (const id of SLASHED) {
      for (const body of [{ chatId: id }, { overrideConfig: { sessionId: id } }]) {
        const res = await call(prediction.POST, {
          method: "POST",
          params: { id: flows.vision },
          headers: auth.bearer(key),
          body: { question: "hi", ...body },
        });
        expect(res.status, `${JSON.stringify(body)}`).toBe(400);
        expect(res.json.error.code).toBe("validation_failed");
      }
    }
    expect(await db.chatMessage.count()).toBe(before);
  });

  it("keeps a dot-only chatId's upload inside the chatflow's folder", async () => {
    for (const chatId of ["..", "."]) {
      const res = await call(prediction.POST, {
        method: "POST",
        params: { id: flows.vision },
        headers: auth.bearer(key),
        body: {
          question: "And this?",
          chatId,
          uploads: [
            { type: "file", name: "p.png", mime: "image/png", data: `data:image/png;base64,${PNG.toString("base64")}` },
          ],
        },
      });
      // Refusing dot-only ids would be fine too.
      expect([200, 400]).toContain(res.status);
    }
    expectNothingOutside();
  });
});

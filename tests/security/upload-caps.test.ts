import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { multiStoreGraph } from "../support/docs-flows";
import { exampleFlow } from "../../dev/flows";
import { auth, call } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

// Issue 10, finding 8: "an image of 10 MiB + 1 byte passes the 10 MiB cap". Each upload cap is
// exact: a file of exactly the cap passes, one byte more is 413 naming the setting.

const CAP = 4096;
let stub: ModelStub;
let key: string;
let visionId: string;
let docsId: string;

beforeAll(async () => {
  stub = await startServerModelStub({ UPLOAD_MAX_BYTES: String(CAP), UPSERT_MAX_FILE_BYTES: String(CAP) });
  visionId = (
    await createChatflow(
      { name: "vision", graph: exampleFlow("conversation.json", { allowImages: true }).graph as never },
      systemCaller,
    )
  ).id;
  docsId = (
    await createChatflow({ name: "docs", graph: multiStoreGraph({ chatUrl: stub.url }) as never }, systemCaller)
  ).id;
  key = await fixtureKey("k", ["predict", "upsert"]);
});
afterAll(() => stub.close());

/** A PNG (by its magic bytes) of exactly `size` bytes. */
const png = (size: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 7)]);

const predictWithImage = (bytes: Buffer) =>
  call(prediction.POST, {
    method: "POST",
    params: { id: visionId },
    headers: auth.bearer(key),
    body: {
      question: "What is this?",
      uploads: [
        {
          type: "file",
          name: "photo.png",
          mime: "image/png",
          data: `data:image/png;base64,${bytes.toString("base64")}`,
        },
      ],
    },
  });

async function upsertText(size: number) {
  const form = new FormData();
  form.append("files", new Blob(["a".repeat(size)]), "notes.txt");
  form.append("stopNodeId", "keywordStore");
  const req = new Request(`http://127.0.0.1:3000/api/v1/vector/upsert/${docsId}`, {
    method: "POST",
    headers: auth.bearer(key),
    body: form,
  });
  const res = await upsert.POST(req, { params: Promise.resolve({ id: docsId }) });
  return { status: res.status, json: await res.json() };
}

describe("upload caps are exact", () => {
  it("prediction image: UPLOAD_MAX_BYTES passes, one byte more is 413 (base64 size computed exactly, with padding)", async () => {
    // CAP, CAP-1 and CAP-2 end in different base64 padding (none, "=", "==").
    for (const size of [CAP - 2, CAP - 1, CAP]) {
      const res = await predictWithImage(png(size));
      expect(res.status, `${size}: ${res.text}`).toBe(200);
    }
    for (const size of [CAP + 1, CAP + 2, CAP + 3]) {
      const res = await predictWithImage(png(size));
      expect(res.status, `${size}`).toBe(413);
      expect(res.json.error).toEqual({
        code: "payload_too_large",
        message: `uploads.0: ${size} bytes, larger than ${CAP} bytes (UPLOAD_MAX_BYTES).`,
        requestId: expect.any(String),
      });
    }
  });

  it("upsert file: UPSERT_MAX_FILE_BYTES passes, one byte more is 413", async () => {
    const at = await upsertText(CAP);
    expect(at.status, JSON.stringify(at.json)).toBe(200);
    expect(at.json.numAdded).toBeGreaterThan(0);
    const over = await upsertText(CAP + 1);
    expect(over.status).toBe(413);
    expect(over.json.error).toEqual({
      code: "payload_too_large",
      message: `notes.txt: ${CAP + 1} bytes, larger than ${CAP} bytes (UPSERT_MAX_FILE_BYTES).`,
      requestId: expect.any(String),
    });
  });
});

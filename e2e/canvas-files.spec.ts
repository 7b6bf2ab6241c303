import { expect, test } from "@playwright/test";
import { makeDocx, makePdf } from "../tests/support/documents";
import { signIn, snap } from "./helpers";

// Issue 10, finding 7: a binary file attached to a loader on the canvas is saved intact (a base64
// data URL with its name, not `file.text()`), loads on the server, and its text reaches the answer.

const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const docx = makeDocx(["Warranty terms", "Every kettle carries a warranty of seven years."]);
const pdf = makePdf(["Opening hours", "The Leeds showroom opens at nine on Sundays."]);

type SavedNode = { id: string; data: { inputs: Record<string, unknown> } };

test("a DOCX and a PDF attached on the canvas are saved intact, indexed, and answer questions in the test chat", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  // A copy of the Docs QA (keyword) example, so the example itself stays as loaded.
  const flows = (await (await page.request.get("/api/v1/chatflows")).json()) as { id: string; name: string }[];
  const example = flows.find((f) => f.name === "Docs QA (keyword search, no embeddings)");
  expect(example, "the Docs QA (keyword) example is loaded on the first start").toBeTruthy();
  const graph = (await (await page.request.get(`/api/v1/chatflows/${example!.id}`)).json()).graph;
  const created = await page.request.post("/api/v1/chatflows", {
    headers: { origin: baseURL! },
    data: { name: `Docs QA files ${Date.now()}`, graph },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).id as string;

  await page.goto(`/chatflows/${id}`);
  const word = page.locator('.react-flow__node[data-id="docxLoader"]');
  const pdfNode = page.locator('.react-flow__node[data-id="pdfLoader"]');
  await word
    .locator('input[type="file"]')
    .setInputFiles({ name: "warranty terms.docx", mimeType: DOCX_MIME, buffer: docx });
  await expect(word.getByTestId("file-loaded")).toContainText("warranty terms.docx loaded");
  await pdfNode
    .locator('input[type="file"]')
    .setInputFiles({ name: "hours.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(pdfNode.getByTestId("file-loaded")).toContainText("hours.pdf loaded");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-state")).toContainText("All changes saved");
  await snap(page, "canvas-files");

  // Saved byte for byte, with the file name; the text file of the example stays plain text.
  const saved = (await (await page.request.get(`/api/v1/chatflows/${id}`)).json()).graph.nodes as SavedNode[];
  const fileOf = (nodeId: string) => String(saved.find((n) => n.id === nodeId)!.data.inputs.file);
  expect(fileOf("docxLoader")).toBe(`data:${DOCX_MIME};name=warranty%20terms.docx;base64,${docx.toString("base64")}`);
  expect(fileOf("pdfLoader")).toBe(`data:application/pdf;name=hours.pdf;base64,${pdf.toString("base64")}`);
  expect(fileOf("guideLoader")).toMatch(/^# /);

  // After a reload the field still names the saved file.
  await page.reload();
  await expect(word.getByTestId("file-loaded")).toContainText("warranty terms.docx loaded");

  // Index the saved files (the upsert API with the studio session), then ask about them.
  const indexed = await page.request.post(`/api/v1/vector/upsert/${id}`, {
    headers: { origin: baseURL! },
    data: { overrideConfig: { returnSourceDocuments: true } },
  });
  expect(indexed.status(), await indexed.text()).toBe(200);
  const sources = new Set(
    ((await indexed.json()).addedDocs as { metadata: { source: string } }[]).map((d) => d.metadata.source),
  );
  expect([...sources]).toEqual(expect.arrayContaining(["warranty terms.docx", "hours.pdf"]));

  await page.getByRole("button", { name: "Test chat", exact: true }).click(); // closed on a first visit
  const panel = page.getByRole("complementary", { name: "Test chat" });
  await panel.getByLabel("Message", { exact: true }).fill("How many years of warranty does a kettle carry?");
  await panel.getByRole("button", { name: "Send" }).click();
  await expect(panel.getByTestId("chat-answer").last()).toContainText("warranty of seven years", { timeout: 30_000 });
  await panel.getByLabel("Message", { exact: true }).fill("When does the Leeds showroom open on Sundays?");
  await panel.getByRole("button", { name: "Send" }).click();
  await expect(panel.getByTestId("chat-answer").last()).toContainText("opens at nine on Sundays", { timeout: 30_000 });
  await snap(page, "canvas-files-chat");
});

import { RecursiveCharacterTextSplitter, type TextSplitter } from "@langchain/textsplitters";
import { Document } from "@langchain/core/documents";
import { AppError } from "@/common/errors";
import { dataUrlFileName, parseBase64DataUrl } from "@/common/files/data-url";
import { describeTypes } from "./file-types";
import { parseInWorker } from "./parse-pool";
import type { NamedBytes } from "./parsers";
import type { DocumentSource, StoreDocument, UpsertFile } from "./types";

/**
 * The built object of a loader node. It loads nothing at build time (a flow is built for every
 * prediction); the upsert service calls load() with the request's uploads.
 */

export interface LoaderSpec {
  label: string;
  /** Media types of uploads this loader reads. */
  accepts: readonly string[];
  params: Record<string, unknown>;
  splitter?: TextSplitter;
  parse(file: NamedBytes): Promise<StoreDocument[]> | StoreDocument[];
}

/**
 * A saved file param: a base64 data: URL (binary formats, as the canvas saves them) or the file's
 * text (text formats, and values saved before binary files were kept as data URLs).
 */
export function decodeSavedFile(value: string, label: string): Buffer {
  const url = parseBase64DataUrl(value, "saved");
  if (value.startsWith("data:") && !url)
    throw new AppError("unprocessable", `${label}: the saved file is not a base64 data: URL.`);
  return url ? Buffer.from(url.data, "base64") : Buffer.from(value, "utf8");
}

/** The file name a data: URL carries (`;name=<percent-encoded>`), made safe for display. */
export function savedFileName(value: string): string | undefined {
  const url = parseBase64DataUrl(value, "saved");
  return url && dataUrlFileName(url);
}

/** Adds the node's extra metadata (which never overrides `source`). */
function withMetadata(docs: StoreDocument[], extra: unknown): StoreDocument[] {
  if (!extra || typeof extra !== "object" || Array.isArray(extra)) return docs;
  return docs.map((d) => ({
    pageContent: d.pageContent,
    metadata: { ...(extra as Record<string, unknown>), ...d.metadata },
  }));
}

/**
 * Splits documents when a splitter is connected; chunk metadata keeps the document's. The
 * recursive splitter (our splitter node) runs in the parse worker: cutting tens of MiB of text
 * takes seconds, which must not be spent on the event loop.
 */
export async function splitDocuments(
  docs: StoreDocument[],
  splitter: TextSplitter | undefined,
  label: string,
): Promise<StoreDocument[]> {
  if (!splitter || docs.length === 0) return docs;
  if (splitter instanceof RecursiveCharacterTextSplitter) {
    const { chunkSize, chunkOverlap, separators, keepSeparator } = splitter;
    return parseInWorker({
      kind: "split",
      name: label,
      bytes: Buffer.alloc(0),
      opts: { docs, splitter: { chunkSize, chunkOverlap, separators, keepSeparator } },
    });
  }
  const chunks = await splitter.splitDocuments(
    docs.map((d) => new Document({ pageContent: d.pageContent, metadata: d.metadata })),
  );
  return chunks.map((c) => ({ pageContent: c.pageContent, metadata: c.metadata }));
}

/** A loader reading matching uploads, or its saved file when no upload is for it. */
export function fileDocumentSource(spec: LoaderSpec): DocumentSource {
  return {
    kind: "documentSource",
    label: spec.label,
    accepts: spec.accepts,
    async load(files: readonly UpsertFile[]) {
      const mine = files.filter((f) => spec.accepts.includes(f.mime));
      const saved = typeof spec.params.file === "string" && spec.params.file ? spec.params.file : undefined;
      const inputs: NamedBytes[] = mine.length
        ? mine
        : saved
          ? [
              {
                name: String(spec.params.sourceName || savedFileName(saved) || spec.label),
                bytes: decodeSavedFile(saved, spec.label),
              },
            ]
          : [];
      const docs: StoreDocument[] = [];
      for (const file of inputs) docs.push(...(await spec.parse(file)));
      return splitDocuments(withMetadata(docs, spec.params.metadata), spec.splitter, spec.label);
    },
  };
}

/** The message for an upload no loader reads. */
export function acceptedTypesMessage(accepted: readonly string[]): string {
  return accepted.length
    ? `The loaders of this flow accept: ${describeTypes(accepted)}.`
    : "No loader of this flow accepts uploads (use a PDF, DOCX, CSV, JSON or text file loader).";
}

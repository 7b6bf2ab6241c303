import { TextSplitter } from "@langchain/textsplitters";
import { getEncoding, type TiktokenEncoding } from "js-tiktoken";
import { AppError } from "@/common/errors";

/** The chunk size and overlap params every text splitter has (characters, or tokens for the token splitter). */
export const chunkParams = (unit: "characters" | "tokens") =>
  [
    {
      kind: "param",
      name: "chunkSize",
      label: "Chunk size",
      type: "number",
      default: unit === "tokens" ? 500 : 1000,
      integer: true,
      min: 20,
      max: 100_000,
      description: `Most ${unit} in one chunk.`,
    },
    {
      kind: "param",
      name: "chunkOverlap",
      label: "Chunk overlap",
      type: "number",
      default: unit === "tokens" ? 50 : 200,
      integer: true,
      min: 0,
      max: 50_000,
      description: `${unit === "tokens" ? "Tokens" : "Characters"} repeated from one chunk into the next.`,
    },
  ] as const;

/** Refuses an overlap that is not below the chunk size (the splitters would loop or throw mid-upsert). */
export function checkChunking(label: string, { chunkSize, chunkOverlap }: { chunkSize: number; chunkOverlap: number }) {
  if (chunkOverlap >= chunkSize)
    throw new AppError(
      "invalid_graph",
      `${label}: chunk overlap (${chunkOverlap}) must be smaller than chunk size (${chunkSize}).`,
    );
}

/**
 * Splits on token counts with js-tiktoken's bundled encodings (no download: LangChain's own token
 * splitter fetches the encoding from the network on first use).
 */
export class OfflineTokenTextSplitter extends TextSplitter {
  static lc_name() {
    return "OfflineTokenTextSplitter";
  }
  private readonly encoding: ReturnType<typeof getEncoding>;

  constructor(fields: { chunkSize: number; chunkOverlap: number; encodingName: TiktokenEncoding }) {
    super(fields);
    this.encoding = getEncoding(fields.encodingName);
  }

  async splitText(text: string): Promise<string[]> {
    const ids = this.encoding.encode(text, [], []);
    const chunks: string[] = [];
    for (let start = 0; start < ids.length; ) {
      const end = Math.min(start + this.chunkSize, ids.length);
      chunks.push(this.encoding.decode(ids.slice(start, end)));
      if (end === ids.length) break;
      start = end - this.chunkOverlap;
    }
    return chunks;
  }
}

/**
 * Markdown: sections cut at headings of `level` or above (each keeps its heading), then each section
 * longer than the chunk size split by `inner` (Markdown-aware). Level 0: `inner` alone.
 */
export class MarkdownSectionSplitter extends TextSplitter {
  static lc_name() {
    return "MarkdownSectionSplitter";
  }
  constructor(
    private readonly level: number,
    private readonly inner: TextSplitter,
  ) {
    super({ chunkSize: inner.chunkSize, chunkOverlap: inner.chunkOverlap });
  }

  async splitText(text: string): Promise<string[]> {
    if (this.level === 0) return this.inner.splitText(text);
    const sections: string[] = [];
    let current: string[] = [];
    let fence = false;
    for (const line of text.split("\n")) {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      const depth = fence ? 0 : (/^(#{1,6})\s/.exec(line)?.[1].length ?? 0);
      if (depth > 0 && depth <= this.level && current.some((l) => l.trim())) {
        sections.push(current.join("\n").trim());
        current = [];
      }
      current.push(line);
    }
    if (current.some((l) => l.trim())) sections.push(current.join("\n").trim());
    const out: string[] = [];
    for (const section of sections)
      out.push(...(section.length > this.chunkSize ? await this.inner.splitText(section) : [section]));
    return out;
  }
}

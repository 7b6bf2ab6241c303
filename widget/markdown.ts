/**
 * A small Markdown reader for chat answers. It produces a tree of plain data, never HTML: the
 * renderer turns it into DOM nodes with text content only, so a model (or a page it read) cannot
 * inject markup. Covers what chat models write: paragraphs, headings, lists, code, quotes, rules,
 * bold, italics, inline code and links.
 */

export type Inline =
  | { t: "text"; v: string }
  | { t: "strong" | "em"; c: Inline[] }
  | { t: "code"; v: string }
  | { t: "link"; href: string; c: Inline[] }
  | { t: "br" };

export type Block =
  | { t: "p"; c: Inline[] }
  | { t: "h"; level: number; c: Inline[] }
  | { t: "ul"; items: Inline[][] }
  | { t: "ol"; start: number; items: Inline[][] }
  | { t: "code"; lang: string; v: string }
  | { t: "quote"; c: Block[] }
  | { t: "hr" };

const SAFE_SCHEMES = ["http:", "https:", "mailto:"];

/** The URL when it is absolute and http(s) or mailto; null for javascript:, data:, relative paths and the like. */
export function safeHref(raw: string): string | null {
  const s = raw.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(s)) return null;
  try {
    const url = new URL(s);
    return SAFE_SCHEMES.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

// One alternation per inline form; the first group that matched says which.
const INLINE =
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__(?!\w)|\*(?=[^\s*])([\s\S]*?[^\s*])\*|_(?=\S)([\s\S]*?\S)_(?!\w)|\[([^\]\n]+)\]\(\s*<?((?:[^()\s>]|\([^()\s]*\))*)>?(?:\s+"[^"]*")?\s*\)|<((?:https?:\/\/|mailto:)[^>\s]+)>|((?:https?:\/\/|www\.)[^\s<]*[^\s<.,:;"'!?)\]])|\n/g;

/** Reads inline Markdown into nodes. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pushText = (v: string) => {
    if (!v) return;
    const last = out[out.length - 1];
    if (last?.t === "text") last.v += v;
    else out.push({ t: "text", v });
  };
  const re = new RegExp(INLINE.source, "g");
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[6] !== undefined && /\w/.test(text[m.index - 1] ?? "")) {
      // snake_case_words are not emphasis (no look-behind: older Safari lacks it).
      re.lastIndex = m.index + 1;
      continue;
    }
    pushText(text.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[1]) out.push({ t: "code", v: m[2].replace(/^ (.*) $/s, "$1") });
    else if (m[3] ?? m[4]) out.push({ t: "strong", c: parseInline(m[3] ?? m[4]) });
    else if (m[5] ?? m[6]) out.push({ t: "em", c: parseInline(m[5] ?? m[6]) });
    else if (m[7] !== undefined) {
      const href = safeHref(m[8]);
      if (href) out.push({ t: "link", href, c: parseInline(m[7]) });
      else out.push(...parseInline(m[7]));
    } else if (m[9] ?? m[10]) {
      const shown = m[9] ?? m[10];
      const href = safeHref(shown.startsWith("www.") ? `https://${shown}` : shown);
      if (href) out.push({ t: "link", href, c: [{ t: "text", v: shown }] });
      else pushText(m[0]);
    } else out.push({ t: "br" });
  }
  pushText(text.slice(at));
  return out;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

const startsBlock = (line: string) =>
  FENCE.test(line) ||
  HEADING.test(line) ||
  RULE.test(line) ||
  BULLET.test(line) ||
  NUMBERED.test(line) ||
  QUOTE.test(line);

/** Reads block Markdown (an unclosed code fence, as while streaming, runs to the end). */
export function parseMarkdown(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
      i++;
      blocks.push({ t: "code", lang: fence[2], v: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ t: "h", level: heading[1].length, c: parseInline(heading[2]) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) inner.push(QUOTE.exec(lines[i])![1]);
      blocks.push({ t: "quote", c: parseMarkdown(inner.join("\n")) });
      continue;
    }
    const list = readList(lines, i);
    if (list) {
      blocks.push(list.block);
      i = list.next;
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i].trim() && (para.length === 0 || !startsBlock(lines[i])); i++)
      para.push(lines[i].trim());
    blocks.push({ t: "p", c: parseInline(para.join("\n")) });
  }
  return blocks;
}

/** A run of list items of one kind; indented lines continue the current item. */
function readList(lines: string[], from: number): { block: Block; next: number } | undefined {
  const ordered = NUMBERED.exec(lines[from]);
  const kind = ordered ? NUMBERED : BULLET.test(lines[from]) ? BULLET : undefined;
  if (!kind) return undefined;
  const items: string[] = [];
  let i = from;
  for (; i < lines.length; i++) {
    const m = kind.exec(lines[i]);
    if (m) items.push(m[m.length - 1]);
    else if (lines[i].trim() && /^\s{2,}/.test(lines[i])) items[items.length - 1] += `\n${lines[i].trim()}`;
    else if (!lines[i].trim() && i + 1 < lines.length && kind.test(lines[i + 1])) continue;
    else break;
  }
  const parsed = items.map(parseInline);
  const block: Block = ordered ? { t: "ol", start: Number(ordered[1]), items: parsed } : { t: "ul", items: parsed };
  return { block, next: i };
}

/**
 * A small Markdown reader for chat answers. It produces a tree of plain data, never HTML: the
 * renderer turns it into DOM nodes with text content only, so a model (or a page it read) cannot
 * inject markup. Covers what chat models write: paragraphs, headings, lists, code, quotes, rules,
 * bold, italics, inline code and links.
 *
 * The text comes from a model that an attacker can steer, so every step runs in time linear in
 * its length: one left-to-right scan per line or paragraph, emphasis paired with CommonMark's
 * delimiter stack, and no regular expression that can backtrack over a whole line.
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

/**
 * Quotes and emphasis nested deeper than this stay plain text: no chat answer needs more, and it
 * bounds the work per line and the depth of the DOM (and of the renderer's recursion).
 */
const MAX_NESTING = 10;

// ---- Inline ----

// What a piece of a paragraph is while it is read, and what a run of `*` or `_` can do.
const TEXT = 0;
const CODE = 1;
const BR = 2;
const EM = 3;
const STRONG = 4;
const LINK = 5;
const CAN_OPEN = 1;
const CAN_CLOSE = 2;

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const URL_START = /^(?:https?:\/\/|www\.)/;
// GFM leaves these off the end of a bare URL; `)` only when unbalanced.
const URL_TRAILING = /[.,:;"'!?\]*_~]/;

const SPACE = 0;
const PUNCT = 1;
const WORD = 2;
const kindOf = (c: string) => (/\s/.test(c) ? SPACE : /[\p{P}\p{S}]/u.test(c) ? PUNCT : WORD);
const ASCII_KIND = Array.from({ length: 128 }, (_, code) => kindOf(String.fromCharCode(code)));
/** Whitespace, punctuation or other, as CommonMark's flanking rules see it (the ends of the text count as space). */
function charKind(c: string | undefined): number {
  if (c === undefined) return SPACE;
  const code = c.charCodeAt(0);
  return code < 128 ? ASCII_KIND[code] : kindOf(c);
}
const isBlank = (c: string | undefined) => charKind(c) === SPACE;

// The paragraph being read. Its pieces (text, code, breaks, and emphasis and links wrapping others)
// are rows of integer columns, their text a slice of `src`: one object per piece would leave a
// paragraph of nothing but `*` and `_` spending most of its time in the garbage collector. Row 0 is
// the paragraph itself, and 0 in a link column means none. The state is module-level, not a class,
// so the minifier can shorten every name in the embed script; parseInline never re-enters.
let src = "";
let pieces = 1;
let kind = new Int32Array(0);
/** A piece's text is src[from, to); an emphasis piece's, its marks. */
let from = kind;
let to = kind;
let prev = kind;
let next = kind;
let first = kind;
let last = kind;
// A run of `*` or `_` that can open or close is on CommonMark's delimiter stack: its length as read,
// CAN_OPEN | CAN_CLOSE, and its neighbours there. Runs are in reading order, as piece numbers are.
let runLength = kind;
let runFlags = kind;
let below = kind;
let above = kind;
let top = 0;
/** The `[` not yet closed, oldest first: its piece, and the delimiter stack's top when it was read. */
let bracketPiece = kind;
let bracketBottom = kind;
let brackets = 0;
/** `[` before this offset cannot open a link: links do not nest. */
let linkFloor = 0;
const hrefs = new Map<number, string>();
/** Where the text not yet in a piece starts. */
let plain = 0;
/** Starts of the backtick runs of each length, read once, for finding a code span's closer. */
let ticks: Map<number, number[]> | undefined;
const tickCursor = new Map<number, number>();
columns(64);

/** Reads inline Markdown into nodes. */
export function parseInline(text: string): Inline[] {
  src = text;
  // Rarely more pieces than one and a half per character: sized once rather than grown, and kept
  // for the next paragraph (a streamed answer is read again at every token) unless far too large.
  const rows = 16 + text.length + (text.length >> 1);
  if (kind.length < rows || kind.length > 8 * rows + 4096) columns(rows);
  pieces = 1;
  top = brackets = linkFloor = plain = 0;
  first[0] = last[0] = 0;
  hrefs.clear();
  ticks = undefined;
  tickCursor.clear();
  for (let i = 0; i < text.length; ) {
    const end = readAt(text[i], i);
    if (end > i) i = plain = end;
    else i = end < 0 ? -end : i + 1;
  }
  flush(text.length);
  processEmphasis(0);
  return toInlines(first[0], [], 0, false);
}

/**
 * Reads the construct at `i` and returns where it ends; or `i` when `c` is plain text, and minus
 * where it ends when a run from `i` is (read one character at a time, a long run would be quadratic).
 */
function readAt(c: string, i: number): number {
  switch (c) {
    case "\\":
      if (!ESCAPABLE.test(src[i + 1] ?? "")) return i;
      flush(i);
      append(add(TEXT, i + 1, i + 2));
      return i + 2;
    case "\n":
      flush(i);
      append(add(BR, i, i));
      return i + 1;
    case "`":
      return codeSpan(i);
    case "*":
    case "_":
      return delimiterRun(i);
    case "[": {
      flush(i);
      const p = add(TEXT, i, i + 1);
      append(p);
      bracketPiece[brackets] = p;
      bracketBottom[brackets++] = top;
      return i + 1;
    }
    case "]":
      flush(i);
      return closeBracket(i);
    case "<":
      return autolink(i);
    case "h":
    case "w":
      return src.startsWith("http", i) || src.startsWith("www.", i) ? bareUrl(i) : i;
    default:
      return i;
  }
}

/** Gives every column `rows` rows, keeping what fits. */
function columns(rows: number) {
  const column = (old: Int32Array) => {
    const col = new Int32Array(rows);
    col.set(old.subarray(0, rows));
    return col;
  };
  kind = column(kind);
  from = column(from);
  to = column(to);
  prev = column(prev);
  next = column(next);
  first = column(first);
  last = column(last);
  runLength = column(runLength);
  runFlags = column(runFlags);
  below = column(below);
  above = column(above);
  bracketPiece = column(bracketPiece);
  bracketBottom = column(bracketBottom);
}

function add(k: number, a: number, b: number): number {
  if (pieces === kind.length) columns(pieces * 2);
  const p = pieces++;
  kind[p] = k;
  from[p] = a;
  to[p] = b;
  prev[p] = next[p] = first[p] = last[p] = 0;
  return p;
}

function append(p: number, parent = 0) {
  prev[p] = last[parent];
  if (last[parent]) next[last[parent]] = p;
  else first[parent] = p;
  last[parent] = p;
}

function unlink(p: number) {
  if (prev[p]) next[prev[p]] = next[p];
  else first[0] = next[p];
  if (next[p]) prev[next[p]] = prev[p];
  else last[0] = prev[p];
}

/** Moves the pieces strictly between `a` and `b` (0: the end) into `into`, and puts `into` there. */
function wrap(a: number, b: number, into: number) {
  const head = next[a];
  const tail = b ? prev[b] : last[0];
  if (head && head !== b) {
    first[into] = head;
    last[into] = tail;
    prev[head] = next[tail] = 0;
  }
  prev[into] = a;
  next[into] = b;
  next[a] = into;
  if (b) prev[b] = into;
  else last[0] = into;
}

function flush(i: number) {
  if (plain < i) append(add(TEXT, plain, i));
}

function codeSpan(i: number): number {
  let n = 1;
  while (src[i + n] === "`") n++;
  const close = nextTickRun(n, i + n);
  if (close < 0) return -(i + n);
  flush(i);
  const inner = src.slice(i + n, close);
  const pad = inner.length > 1 && inner[0] === " " && inner[inner.length - 1] === " " && inner.trim() ? 1 : 0;
  append(add(CODE, i + n + pad, close - pad));
  return close + n;
}

/** The start of the first run of exactly `n` backticks at or after `at`, or -1. */
function nextTickRun(n: number, at: number): number {
  if (!ticks) {
    ticks = new Map();
    for (let j = at; j < src.length; j++) {
      if (src[j] !== "`") continue;
      let k = j;
      while (src[k] === "`") k++;
      const runs = ticks.get(k - j) ?? [];
      runs.push(j);
      ticks.set(k - j, runs);
      j = k;
    }
  }
  const runs = ticks.get(n) ?? [];
  let c = tickCursor.get(n) ?? 0;
  while (c < runs.length && runs[c] < at) c++;
  tickCursor.set(n, c);
  return c < runs.length ? runs[c] : -1;
}

function delimiterRun(i: number): number {
  const ch = src[i];
  let n = 1;
  while (src[i + n] === ch) n++;
  const before = charKind(src[i - 1]);
  const after = charKind(src[i + n]);
  const left = after !== SPACE && (after === WORD || before !== WORD);
  const right = before !== SPACE && (before === WORD || after !== WORD);
  // An underscore inside a word (snake_case) neither opens nor closes.
  const open = ch === "*" ? left : left && (!right || before === PUNCT);
  const close = ch === "*" ? right : right && (!left || after === PUNCT);
  if (!open && !close) return -(i + n);
  flush(i);
  const p = add(TEXT, i, i + n);
  append(p);
  runLength[p] = n;
  runFlags[p] = (open ? CAN_OPEN : 0) | (close ? CAN_CLOSE : 0);
  below[p] = top;
  above[p] = 0;
  above[top] = p;
  top = p;
  return i + n;
}

function closeBracket(i: number): number {
  const open = brackets ? bracketPiece[--brackets] : 0;
  const dest = open && from[open] >= linkFloor && next[open] ? readDestination(src, i + 1) : null;
  if (!dest) {
    append(add(TEXT, i, i + 1));
    return i + 1;
  }
  processEmphasis(bracketBottom[brackets]);
  linkFloor = from[open];
  const href = safeHref(dest.url);
  // A link to anything else keeps its text and loses the link.
  if (href) {
    const link = add(LINK, i, i);
    hrefs.set(link, href);
    wrap(open, 0, link);
  }
  unlink(open);
  return dest.end;
}

function autolink(i: number): number {
  if (!/^(?:https?:\/\/|mailto:)/.test(src.slice(i + 1, i + 9))) return i;
  let j = i + 1;
  while (j < src.length && src[j] !== ">" && src[j] !== "<" && !isBlank(src[j])) j++;
  if (src[j] !== ">") return i;
  flush(i);
  appendUrl(src.slice(i + 1, j), i + 1, j, i, j + 1);
  return j + 1;
}

function bareUrl(i: number): number {
  let j = i;
  let open = 0;
  // Inside a link's text, `]` ends the URL: it closes the text.
  for (; j < src.length && src[j] !== "<" && !isBlank(src[j]) && !(brackets && src[j] === "]"); j++) {
    if (src[j] === "(") open++;
    else if (src[j] === ")") open--;
  }
  for (; j > i; j--) {
    if (src[j - 1] === ")" && open < 0) open++;
    else if (!URL_TRAILING.test(src[j - 1])) break;
  }
  const shown = src.slice(i, j);
  if ((URL_START.exec(shown)?.[0].length ?? shown.length) >= shown.length) return i;
  flush(i);
  appendUrl(shown.startsWith("www.") ? `https://${shown}` : shown, i, j, i, j);
  return j;
}

/** A link showing src[a, b), or the text src[literalFrom, literalTo) it came from when the URL is not safe. */
function appendUrl(url: string, a: number, b: number, literalFrom: number, literalTo: number) {
  const href = safeHref(url);
  if (!href) return append(add(TEXT, literalFrom, literalTo));
  const link = add(LINK, a, a);
  hrefs.set(link, href);
  append(add(TEXT, a, b), link);
  append(link);
}

/** Pairs the runs above `bottom` into emphasis (CommonMark's "process emphasis"), then drops them. */
function processEmphasis(bottom: number) {
  // Where the search for an opener stopped last time, per kind of closer: keeps the pairing linear.
  const openersBottom = new Array<number>(12).fill(bottom);
  let closer = top;
  if (closer === bottom) return;
  while (below[closer] !== bottom) closer = below[closer];
  while (closer) {
    const flags = runFlags[closer];
    const ch = src[from[closer]];
    const bucket = (ch === "_" ? 0 : 6) + (flags & CAN_OPEN ? 3 : 0) + (runLength[closer] % 3);
    let opener = below[closer];
    for (; flags & CAN_CLOSE && opener > openersBottom[bucket]; opener = below[opener]) {
      const odd =
        (flags & CAN_OPEN || runFlags[opener] & CAN_CLOSE) &&
        runLength[closer] % 3 !== 0 &&
        (runLength[opener] + runLength[closer]) % 3 === 0;
      if (src[from[opener]] === ch && runFlags[opener] & CAN_OPEN && !odd) break;
    }
    if (!(flags & CAN_CLOSE) || opener <= openersBottom[bucket]) {
      if (flags & CAN_CLOSE) openersBottom[bucket] = below[closer];
      const after = above[closer];
      if (!(flags & CAN_OPEN)) removeRun(closer);
      closer = after;
      continue;
    }
    const use = to[closer] - from[closer] >= 2 && to[opener] - from[opener] >= 2 ? 2 : 1;
    to[opener] -= use;
    to[closer] -= use;
    wrap(opener, closer, add(use === 2 ? STRONG : EM, to[opener], to[opener] + use));
    above[opener] = closer;
    below[closer] = opener;
    if (to[opener] === from[opener]) {
      unlink(opener);
      removeRun(opener);
    }
    if (to[closer] === from[closer]) {
      unlink(closer);
      const after = above[closer];
      removeRun(closer);
      closer = after;
    }
  }
  top = bottom;
  above[bottom] = 0;
}

function removeRun(d: number) {
  above[below[d]] = above[d];
  if (above[d]) below[above[d]] = below[d];
  else top = below[d];
}

/** The pieces from `p` on as plain data, merging adjacent text. */
function toInlines(p: number, out: Inline[], depth: number, inLink: boolean): Inline[] {
  for (; p; p = next[p]) {
    const k = kind[p];
    if (k === TEXT) {
      // Text pieces that follow on in the source become one slice.
      const start = from[p];
      for (let q = next[p]; q && kind[q] === TEXT && from[q] === to[p]; q = next[p]) p = q;
      pushText(out, src.slice(start, to[p]));
    } else if (k === CODE) out.push({ t: "code", v: src.slice(from[p], to[p]) });
    else if (k === BR) out.push({ t: "br" });
    else if (depth >= MAX_NESTING || (k === LINK && inLink)) flatten(p, out);
    else {
      const c: Inline[] = [];
      out.push(k === LINK ? { t: "link", href: hrefs.get(p)!, c } : { t: k === STRONG ? "strong" : "em", c });
      toInlines(first[p], c, depth + 1, inLink || k === LINK);
    }
  }
  return out;
}

/**
 * Emphasis too deep, or a URL inside a link's text: its content without the element, emphasis
 * keeping its marks as text. Iterative: emphasis can nest as deep as the text is long.
 */
function flatten(root: number, out: Inline[]) {
  // A negative entry stands for the closing marks of that piece.
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    const v = src.slice(from[Math.abs(p)], to[Math.abs(p)]);
    if (p > 0 && kind[p] === CODE) out.push({ t: "code", v });
    else if (p > 0 && kind[p] === BR) out.push({ t: "br" });
    else pushText(out, v);
    if (p > 0 && kind[p] >= EM) {
      stack.push(-p);
      for (let c = last[p]; c; c = prev[c]) stack.push(c);
    }
  }
}

function pushText(out: Inline[], v: string) {
  if (!v) return;
  const last = out[out.length - 1];
  if (last?.t === "text") last.v += v;
  else out.push({ t: "text", v });
}

/**
 * A link's `(url "title")` after `]` at `at`: the URL, in angle brackets or with at most one
 * level of balanced parentheses, so a failed attempt reads no further than the next space or `(`.
 */
function readDestination(s: string, at: number): { url: string; end: number } | null {
  if (s[at] !== "(") return null;
  let j = at + 1;
  while (j < s.length && isBlank(s[j])) j++;
  const pointy = s[j] === "<";
  const start = pointy ? j + 1 : j;
  if (pointy) {
    for (j = start; j < s.length && s[j] !== ">" && s[j] !== "<" && s[j] !== "\n"; j++);
    if (s[j] !== ">") return null;
  } else {
    let depth = 0;
    for (; j < s.length && !isBlank(s[j]); j++) {
      if (s[j] === "(" && depth++ > 0) return null;
      if (s[j] === ")" && depth-- === 0) break;
    }
    if (depth > 0) return null;
  }
  const url = s.slice(start, j);
  if (pointy) j++;
  let k = j;
  while (k < s.length && isBlank(s[k])) k++;
  if (s[k] === '"' && k > j) {
    k = s.indexOf('"', k + 1);
    if (k < 0) return null;
    for (k++; k < s.length && isBlank(s[k]); k++);
  }
  return s[k] === ")" ? { url, end: k + 1 } : null;
}

// ---- Blocks ----

// Anchored, and no `$` after two quantifiers that could trade characters: each reads a line once.
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+([\s\S]*)/;
const BULLET = /^\s{0,3}[-*+]\s+([\s\S]*)/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+([\s\S]*)/;
const QUOTE = /^\s{0,3}>\s?([\s\S]*)/;
const isRule = (line: string) => /^\s{0,3}[-*_]/.test(line) && /^(?:-{3,}|\*{3,}|_{3,})$/.test(line.replace(/\s/g, ""));

const startsBlock = (line: string, depth: number) =>
  /^\s{0,3}[-`~#*_+>\d]/.test(line) &&
  (FENCE.test(line) ||
    HEADING.test(line) ||
    isRule(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    (depth < MAX_NESTING && QUOTE.test(line)));

/** A heading's text without its closing run of `#`. */
function headingText(raw: string): string {
  const s = raw.trim();
  let j = s.length;
  while (j > 0 && s[j - 1] === "#") j--;
  if (j === 0) return "";
  return j < s.length && /\s/.test(s[j - 1]) ? s.slice(0, j).trimEnd() : s;
}

/** Reads block Markdown (an unclosed code fence, as while streaming, runs to the end). */
export function parseMarkdown(text: string): Block[] {
  return parseBlocks(text.replace(/\r\n?/g, "\n").split("\n"), 0);
}

function parseBlocks(lines: string[], depth: number): Block[] {
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
      blocks.push({ t: "h", level: heading[1].length, c: parseInline(headingText(heading[2])) });
      i++;
      continue;
    }
    if (isRule(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (depth < MAX_NESTING && QUOTE.test(line)) {
      const inner: string[] = [];
      for (; i < lines.length && QUOTE.test(lines[i]); i++) inner.push(QUOTE.exec(lines[i])![1]);
      blocks.push({ t: "quote", c: parseBlocks(inner, depth + 1) });
      continue;
    }
    const list = readList(lines, i);
    if (list) {
      blocks.push(list.block);
      i = list.next;
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i].trim() && (para.length === 0 || !startsBlock(lines[i], depth)); i++)
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
    else if (lines[i].trim() && /^\s{2}/.test(lines[i])) items[items.length - 1] += `\n${lines[i].trim()}`;
    else if (!lines[i].trim() && i + 1 < lines.length && kind.test(lines[i + 1])) continue;
    else break;
  }
  const parsed = items.map(parseInline);
  const block: Block = ordered ? { t: "ol", start: Number(ordered[1]), items: parsed } : { t: "ul", items: parsed };
  return { block, next: i };
}

import { afterEach, describe, expect, it, vi } from "vitest";
import { type Block, type Inline, parseInline, parseMarkdown } from "./markdown";
import { renderMarkdown } from "./render-markdown";

// The widget's Markdown reader. Model answers reach it in a visitor's browser and an attacker can
// steer them, so besides what it reads, it must read anything in linear time and keep HTML as text.

const text = (v: string): Inline => ({ t: "text", v });
const link = (href: string, v: string): Inline => ({ t: "link", href, c: [text(v)] });

describe("ordinary chat answers read as before", () => {
  it("bold, italics, code, links, bare URLs and line breaks", () => {
    expect(parseInline("**ZenBook Pro** at [the shop](https://shop.example/zenbook), *1,299 €* with `EUR`")).toEqual([
      { t: "strong", c: [text("ZenBook Pro")] },
      text(" at "),
      link("https://shop.example/zenbook", "the shop"),
      text(", "),
      { t: "em", c: [text("1,299 €")] },
      text(" with "),
      { t: "code", v: "EUR" },
    ]);
    expect(parseInline("See https://example.com/a. Or (www.example.org)\n<https://x.example/?q=1>")).toEqual([
      text("See "),
      link("https://example.com/a", "https://example.com/a"),
      text(". Or ("),
      link("https://www.example.org/", "www.example.org"),
      text(")"),
      { t: "br" },
      link("https://x.example/?q=1", "https://x.example/?q=1"),
    ]);
    expect(parseInline('Use [the guide](https://e.example/a_(b) "Guide") and **bold _with italics_**.')).toEqual([
      text("Use "),
      link("https://e.example/a_(b)", "the guide"),
      text(" and "),
      { t: "strong", c: [text("bold "), { t: "em", c: [text("with italics")] }] },
      text("."),
    ]);
  });

  it("leaves snake_case and stray marks alone", () => {
    expect(parseInline("max_price_eur is _set_; 2 * 3 * 4 and file_name.py")).toEqual([
      text("max_price_eur is "),
      { t: "em", c: [text("set")] },
      text("; 2 * 3 * 4 and file_name.py"),
    ]);
    expect(parseInline("https://example.com/foo_bar_baz")).toEqual([
      link("https://example.com/foo_bar_baz", "https://example.com/foo_bar_baz"),
    ]);
  });

  it("paragraphs, headings, lists, quotes, rules and code fences", () => {
    const md = [
      "## Laptops",
      "",
      "1. **ThinkBook** – 999 €",
      "2. ZenBook",
      "   with OLED",
      "",
      "- a",
      "* b",
      "",
      "> note",
      "> > nested",
      "",
      "---",
      "First line",
      "second line",
      "",
      "```js",
      "const x = '<b>';",
      "```",
      "after",
    ].join("\n");
    expect(parseMarkdown(md)).toEqual([
      { t: "h", level: 2, c: [text("Laptops")] },
      {
        t: "ol",
        start: 1,
        items: [
          [{ t: "strong", c: [text("ThinkBook")] }, text(" – 999 €")],
          [text("ZenBook"), { t: "br" }, text("with OLED")],
        ],
      },
      { t: "ul", items: [[text("a")], [text("b")]] },
      {
        t: "quote",
        c: [
          { t: "p", c: [text("note")] },
          { t: "quote", c: [{ t: "p", c: [text("nested")] }] },
        ],
      },
      { t: "hr" },
      { t: "p", c: [text("First line"), { t: "br" }, text("second line")] },
      { t: "code", lang: "js", v: "const x = '<b>';" },
      { t: "p", c: [text("after")] },
    ]);
  });

  it("reads what the old reader got wrong the CommonMark way", () => {
    expect(parseInline("***both***")).toEqual([{ t: "em", c: [{ t: "strong", c: [text("both")] }] }]);
    expect(parseInline("\\*not italic\\* and `` a ` b ``")).toEqual([
      text("*not italic* and "),
      { t: "code", v: "a ` b" },
    ]);
    expect(parseMarkdown("## Learn C# ##")).toEqual([{ t: "h", level: 2, c: [text("Learn C#")] }]);
  });
});

describe("safety", () => {
  it("links only absolute http(s) and mailto URLs, keeping the text of any other", () => {
    expect(parseInline("[click](javascript:alert(1))")).toEqual([text("click")]);
    expect(parseInline("[x](<JavaScript:alert(1)>) [y](data:text/html,hi) [z](/relative)")).toEqual([text("x y z")]);
    expect(parseInline("<javascript:alert(1)> javascript:alert(2)")).toEqual([
      text("<javascript:alert(1)> javascript:alert(2)"),
    ]);
    expect(parseInline("[mail](mailto:help@example.com)")).toEqual([link("mailto:help@example.com", "mail")]);
  });

  it("keeps HTML as text and never nests a link in a link", () => {
    expect(parseMarkdown('<script>alert(1)</script> <img src=x onerror="alert(2)">')).toEqual([
      { t: "p", c: [text('<script>alert(1)</script> <img src=x onerror="alert(2)">')] },
    ]);
    expect(parseInline("[see https://a.example](https://b.example)")).toEqual([
      link("https://b.example/", "see https://a.example"),
    ]);
  });

  it("caps nesting, keeping what is deeper as text", () => {
    const deep = parseMarkdown(">".repeat(50_000));
    let depth = 0;
    for (let b: Block | undefined = deep[0]; b?.t === "quote"; b = b.c[0]) depth++;
    expect(depth).toBe(10);
    const em = parseInline(`${"*a ".repeat(50)}b${" a*".repeat(50)}`);
    expect(JSON.stringify(em)).toContain("*a *a");
    expect(JSON.stringify(em).split('"em"').length - 1).toBe(10);
  });
});

describe("rendering", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("builds the elements the widget's styles and tests expect, with text nodes only", () => {
    vi.stubGlobal("document", fakeDocument());
    const md =
      "**ZenBook** at [the shop](https://shop.example/z).\n\n- one\n- `two`\n\n```\n<b>x</b>\n```\n\n<script>alert(1)</script>";
    expect(serialise(renderMarkdown(md) as unknown as FakeNode)).toBe(
      '<p><strong>ZenBook</strong> at <a href="https://shop.example/z" target="_blank" rel="noopener noreferrer nofollow ugc">the shop</a>.</p>' +
        "<ul><li>one</li><li><code>two</code></li></ul><pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>" +
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
    );
  });
});

// Each pattern makes a backtracking or quadratic reader take seconds at this size.
const SIZE = 100_000;
const repeat = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const lines = (line: (i: number) => string) => {
  const out: string[] = [];
  for (let n = 0, i = 0; n < SIZE; i++) n += out[out.push(line(i)) - 1].length + 1;
  return out.join("\n");
};
const ADVERSARIAL: Record<string, string> = {
  _a: repeat("_a"),
  "*a ": repeat("*a "),
  "**a": repeat("**a"),
  __a: repeat("__a"),
  "`a": repeat("`a"),
  "`": repeat("`"),
  "`` a": repeat("`` a"),
  "[a](": repeat("[a]("),
  "[": repeat("["),
  "<http://": repeat("<http://"),
  "> on one line": repeat(">"),
  "> on many lines": lines((i) => `${"> ".repeat((i % 40) + 1)}a`),
  "- indented deeper": lines((i) => `${" ".repeat((i % 300) * 2)}- a`),
  a_: repeat("a_"),
  "*": repeat("*"),
  "_*": repeat("_*"),
  "![a](": repeat("![a]("),
  "](": repeat("]("),
  "http://x.": repeat("http://x."),
  '[a](b "': repeat('[a](b "'),
  "[a](<": repeat("[a](<"),
  "*a **a": repeat("*a **a "),
  "nested *": repeat("*a ").slice(0, SIZE / 2) + repeat(" a*").slice(0, SIZE / 2),
  "heading of spaces": `# a${" ".repeat(SIZE)}b`,
  "list items": repeat("- a\n"),
};

/** The best of five reads of `input` in ms: a loaded machine slows a run down, never a reader up. */
function bestRead(input: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    parseMarkdown(input);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe("reading time is linear", () => {
  it.each(Object.entries(ADVERSARIAL))("%s, 100 KB, reads in under 50 ms (or grows linearly)", (_, input) => {
    const whole = bestRead(input);
    if (whole < 50) return;
    // Slower than that only on a machine busy with other work: then the time must still grow like the
    // input. Four times the text takes about 4 times as long when linear (below 8 passes), 16 times
    // as long when quadratic, and seconds.
    const quarter = bestRead(input.slice(0, input.length >> 2));
    expect(whole / quarter, `100 KB: ${whole.toFixed(1)} ms, 25 KB: ${quarter.toFixed(1)} ms`).toBeLessThan(8);
    expect(whole).toBeLessThan(1000);
  });
});

// Just enough of the DOM for renderMarkdown, serialised back to HTML to compare.
type FakeNode = { tag?: string; text?: string; attrs: [string, string][]; kids: FakeNode[] };

function fakeDocument() {
  const node = (tag?: string, text?: string): FakeNode => ({ tag, text, attrs: [], kids: [] });
  const element = (tag: string) => {
    const n = node(tag);
    return Object.assign(n, {
      setAttribute: (k: string, v: string) => n.attrs.push([k, v]),
      append: (...kids: FakeNode[]) => n.kids.push(...kids),
    });
  };
  return {
    createElement: element,
    createDocumentFragment: () => element(""),
    createTextNode: (text: string) => node(undefined, text),
  };
}

function serialise(n: FakeNode): string {
  const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  if (n.tag === undefined) return escapeHtml(n.text ?? "");
  const inner = n.kids.map(serialise).join("");
  if (!n.tag) return inner;
  const attrs = n.attrs.map(([k, v]) => ` ${k}="${v}"`).join("");
  return `<${n.tag}${attrs}>${inner}</${n.tag}>`;
}

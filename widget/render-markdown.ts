import { parseMarkdown, type Block, type Inline } from "./markdown";

/** Element helper: tag, class, children (strings become text nodes, never markup). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  children: (Node | string | null | undefined | false)[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c) node.append(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

function inlineNodes(nodes: Inline[]): Node[] {
  return nodes.map(inlineNode);
}

function inlineNode(n: Inline): Node {
  switch (n.t) {
    case "text":
      return document.createTextNode(n.v);
    case "br":
      return el("br");
    case "code":
      return el("code", {}, [n.v]);
    case "strong":
    case "em":
      return el(n.t, {}, inlineNodes(n.c));
    case "link":
      // Opens outside the host page; no referrer, no opener, marked as user content.
      return el("a", { href: n.href, target: "_blank", rel: "noopener noreferrer nofollow ugc" }, inlineNodes(n.c));
  }
}

function blockNode(b: Block): Node {
  switch (b.t) {
    case "p":
      return el("p", {}, inlineNodes(b.c));
    case "h":
      // Headings inside a chat bubble stay small: h3–h6 keep the host page's outline sane.
      return el(`h${Math.min(6, b.level + 2)}` as "h3", {}, inlineNodes(b.c));
    case "ul":
      return el(
        "ul",
        {},
        b.items.map((item) => el("li", {}, inlineNodes(item))),
      );
    case "ol":
      return el(
        "ol",
        { start: String(b.start) },
        b.items.map((item) => el("li", {}, inlineNodes(item))),
      );
    case "code":
      return el("pre", {}, [el("code", b.lang ? { "data-lang": b.lang } : {}, [b.v])]);
    case "quote":
      return el("blockquote", {}, b.c.map(blockNode));
    case "hr":
      return el("hr");
  }
}

/** Renders Markdown as DOM nodes built from text only (no innerHTML anywhere). */
export function renderMarkdown(text: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const b of parseMarkdown(text)) frag.append(blockNode(b));
  return frag;
}

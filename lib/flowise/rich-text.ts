/**
 * Flowise's agentflow fields are rich text (TipTap HTML): `<p>` paragraphs, `<br>`, lists, and
 * variables as mention spans (`<span class="variable" data-type="mention" data-id="$flow.state.next">
 * {{ $flow.state.next }}</span>`). On import they become our plain text with `{{…}}` variables.
 * Flowise names a node's output `{{ nodeId.output.field }}`; ours is `{{nodeId.field}}`.
 */

const MENTION = /<span\b[^>]*\bdata-type="mention"[^>]*>[\s\S]*?<\/span>/gi;
const DATA_ID = /\bdata-id="([^"]*)"/i;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower in ENTITIES) return ENTITIES[lower];
    if (lower.startsWith("#x")) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(Number(lower.slice(1)));
    return whole;
  });
}

/** `{{ llmAgentflow_0.output.subject }}` → `{{llmAgentflow_0.subject}}`, `{{ x.output }}` → `{{x}}`; others trimmed. */
function ourVariable(name: string): string {
  const trimmed = name.trim();
  const output = /^([^.\s{}$]+)\.output(?:\.(.+))?$/.exec(trimmed);
  if (output && output[1] !== "output") return `{{${output[1]}${output[2] ? `.${output[2]}` : ""}}}`;
  return `{{${trimmed}}}`;
}

/** Does the text look like TipTap HTML (tags we convert), not text that merely holds a "<"? */
function isRichText(text: string): boolean {
  return /<(p|br|span|ol|ul|li|strong|em|code|pre|h[1-6]|blockquote)\b[^>]*>/i.test(text);
}

/** One rich-text value as our text; text without Flowise's tags keeps its layout (only variables normalised). */
export function richTextToText(text: string): string {
  let out = text;
  if (isRichText(text)) {
    out = text
      .replace(MENTION, (span) => {
        const id = DATA_ID.exec(span)?.[1];
        return id ? `{{${decodeEntities(id)}}}` : span.replace(/<[^>]+>/g, "");
      })
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<li\b[^>]*>/gi, "- ")
      .replace(/<\/(p|li|h[1-6]|blockquote|pre)>/gi, "\n")
      .replace(/<[^>]+>/g, "");
    out = decodeEntities(out)
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }
  return out.replace(/\{\{([^{}]+)\}\}/g, (_, name: string) => ourVariable(name));
}

/** Every string inside a value (lists of `{ role, content }`, conditions…) converted by richTextToText. */
export function richTextDeep(value: unknown): unknown {
  if (typeof value === "string") return richTextToText(value);
  if (Array.isArray(value)) return value.map(richTextDeep);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, richTextDeep(v)]));
  return value;
}

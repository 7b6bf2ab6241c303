/**
 * Names for new flows made from existing ones (a copy, a template used again). Browser-safe: the
 * studio names the flow before it asks the API to save it.
 */

/** Longest chatflow name the API takes (common/schemas/chatflow.ts). */
export const MAX_FLOW_NAME = 200;

/** `name` followed by `suffix`, the name shortened so the whole stays within the limit. */
function withSuffix(name: string, suffix: string): string {
  return name.length + suffix.length <= MAX_FLOW_NAME
    ? `${name}${suffix}`
    : `${name.slice(0, MAX_FLOW_NAME - suffix.length)}${suffix}`;
}

/** The name of a copy: "… (copy)". */
export function copyName(name: string): string {
  return withSuffix(name, " (copy)");
}

/**
 * A name no flow in `taken` has (compared trimmed, any case): `name` itself when free, else
 * "name (2)", "name (3)", … — so a template used twice makes two rows a builder can tell apart.
 */
export function freshName(name: string, taken: Iterable<string>): string {
  const used = new Set(Array.from(taken, (t) => t.trim().toLowerCase()));
  const base = name.trim();
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = withSuffix(base, ` (${n})`);
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

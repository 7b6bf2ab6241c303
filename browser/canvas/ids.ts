/** A node id unique among `taken`: `<defName>_<n>` (no ':' or spaces, so handle ids parse back). */
export function nextNodeId(defName: string, taken: Iterable<string>): string {
  let max = -1;
  const prefix = `${defName}_`;
  for (const id of taken) {
    if (!id.startsWith(prefix)) continue;
    const n = Number(id.slice(prefix.length));
    if (Number.isInteger(n) && n > max) max = n;
  }
  return `${prefix}${max + 1}`;
}

/** The id of the edge between two handles; one edge per handle pair. */
export function edgeIdFor(sourceHandle: string, targetHandle: string): string {
  return `${sourceHandle}->${targetHandle}`;
}

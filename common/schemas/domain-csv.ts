const HEADER_NAMES = new Set(["domain", "domains", "name", "hostname", "host", "url", "website"]);

/** Splits one CSV line into fields (quotes and doubled quotes handled; no multi-line fields). */
function splitCsvLine(line: string, sep: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      out.push(field);
      field = "";
    } else field += ch;
  }
  out.push(field);
  return out;
}

/**
 * Domain names from a CSV (or a plain list, one per line). Takes the column whose header is
 * domain/name/hostname/url (else the first column), skips the header row and empty lines.
 */
export function domainNamesFromCsv(text: string): string[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  if (!lines.length) return [];
  const sep = [",", ";", "\t"].find((s) => lines[0].includes(s)) ?? ",";
  const header = splitCsvLine(lines[0], sep).map((h) => h.trim().toLowerCase());
  const named = header.findIndex((h) => HEADER_NAMES.has(h));
  const column = Math.max(0, named);
  const rows = named >= 0 ? lines.slice(1) : lines;
  return rows.map((l) => (splitCsvLine(l, sep)[column] ?? "").trim()).filter(Boolean);
}

/**
 * The names typed in the studio's box: one per line or separated by commas, each trimmed. Spaces
 * inside an entry are kept, so "not a domain" stays one entry the server reports as invalid
 * rather than three.
 */
export function domainNamesFromText(text: string): string[] {
  return text
    .split(/[\n\r,]+/)
    .map((n) => n.trim())
    .filter(Boolean);
}

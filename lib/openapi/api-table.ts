import type { Operation } from "./declared";

/**
 * The API table of docs/api.md, made from the routes' own declarations (./declared.ts: their
 * policies and docs): `npm run docs:api-table` writes it between the markers below, and
 * lib/openapi/api-table.test.ts fails when docs/api.md differs, so the table cannot drift.
 */
export const TABLE_START = "<!-- api-table:start (npm run docs:api-table; do not edit by hand) -->";
export const TABLE_END = "<!-- api-table:end -->";

/** Who may call, in words, from the route's policy. */
export function callersOf(auth: Operation["auth"]): string {
  if (auth === "public") return "anyone (no credentials)";
  const who: string[] = [];
  if (auth.session) who.push(auth.adminOnly ? "signed-in admin" : "studio session");
  if (auth.basicAdmin) who.push("admin Basic");
  if (auth.apiKey) who.push(`API key with \`${auth.apiKey}\`${auth.adminOnly ? " whose owner is an admin" : ""}`);
  if (auth.anonymous) who.push("anyone");
  return who.join(", ");
}

/** One row per path and callers: methods sharing both are joined (`GET/POST`). */
export function apiTable(operations: readonly Operation[]): string {
  const rows = new Map<string, { methods: string[]; path: string; callers: string }>();
  for (const op of operations) {
    const callers = callersOf(op.auth) + (op.docs.callersNote ? ` (${op.docs.callersNote})` : "");
    const key = `${op.path} ${callers}`;
    const row = rows.get(key) ?? { methods: [], path: op.path, callers };
    row.methods.push(op.method.toUpperCase());
    rows.set(key, row);
  }
  const lines = ["| Endpoint | Callers |", "|---|---|"];
  for (const row of rows.values()) lines.push(`| \`${row.methods.join("/")} ${row.path}\` | ${row.callers} |`);
  return lines.join("\n");
}

/** `doc` with the text between the markers replaced by `table`; throws when a marker is missing. */
export function withApiTable(doc: string, table: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/api.md lacks the markers ${TABLE_START} … ${TABLE_END}`);
  return `${doc.slice(0, start + TABLE_START.length)}\n${table}\n${doc.slice(end)}`;
}

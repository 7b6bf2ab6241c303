import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import Papa from "papaparse";
import { z } from "zod";
import { AppError } from "@/common/errors";

/**
 * The CSV agent's one tool: filter, group, aggregate, sort and limit over the parsed rows of a CSV
 * file, described as data (no code is run). Cells that read as numbers compare and add up as
 * numbers; other comparisons are on text, case-insensitive. A column the file has not is an error
 * naming the columns it has, which the agent reads and corrects.
 */

export type Row = Record<string, string>;

export interface CsvTable {
  columns: string[];
  rows: Row[];
}

/** Largest CSV file read, and most rows kept. */
export const MAX_CSV_BYTES = 20_000_000;
export const MAX_CSV_ROWS = 200_000;
/** Most rows one query answers. */
export const MAX_RESULT_ROWS = 200;

/** Parses CSV text with a header row; refuses a file without columns or rows, naming the node. */
export function parseCsv(text: string, label: string): CsvTable {
  if (text.length > MAX_CSV_BYTES)
    throw new AppError("invalid_graph", `${label}: the CSV file is larger than ${MAX_CSV_BYTES / 1_000_000} MB.`);
  const parsed = Papa.parse<Row>(text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true });
  const columns = (parsed.meta.fields ?? []).filter((c) => c !== "");
  if (columns.length === 0 || parsed.data.length === 0)
    throw new AppError("invalid_graph", `${label}: the CSV file has no header row or no rows.`);
  return { columns, rows: parsed.data.slice(0, MAX_CSV_ROWS) };
}

const NUMBER = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const asNumber = (v: unknown): number | undefined =>
  typeof v === "number" ? v : typeof v === "string" && NUMBER.test(v) ? Number(v) : undefined;

const filterSchema = z.object({
  column: z.string(),
  op: z.enum(["=", "!=", ">", ">=", "<", "<=", "contains", "starts_with"]),
  value: z.union([z.string(), z.number(), z.boolean()]),
});

export const csvQuerySchema = z.object({
  filters: z.array(filterSchema).optional().describe("Conditions every returned row meets (AND)"),
  groupBy: z.array(z.string()).optional().describe("Columns to group by; with aggregates, one row per group"),
  aggregates: z
    .array(
      z.object({
        fn: z.enum(["count", "sum", "avg", "min", "max", "count_distinct"]),
        column: z.string().optional().describe("The column (not needed for count)"),
      }),
    )
    .optional()
    .describe("Aggregates over the matching rows (per group when groupBy is given)"),
  columns: z.array(z.string()).optional().describe("Columns to return (default: all); ignored with aggregates"),
  sortBy: z
    .array(z.object({ column: z.string(), direction: z.enum(["asc", "desc"]).default("asc") }))
    .optional()
    .describe("Sort order; aggregate columns are named like count, sum_price"),
  limit: z.number().int().min(1).max(MAX_RESULT_ROWS).optional().describe(`Most rows returned (default 20)`),
});

export type CsvQuery = z.infer<typeof csvQuerySchema>;
type Filter = z.infer<typeof filterSchema>;

function compare(a: unknown, b: unknown): number {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return x - y;
  return String(a ?? "").localeCompare(String(b ?? ""), undefined, { sensitivity: "base" });
}

function matches(row: Row, f: Filter): boolean {
  const cell = row[f.column] ?? "";
  const text = cell.toLowerCase();
  const want = String(f.value).toLowerCase();
  switch (f.op) {
    case "=":
      return compare(cell, f.value) === 0;
    case "!=":
      return compare(cell, f.value) !== 0;
    case ">":
      return compare(cell, f.value) > 0;
    case ">=":
      return compare(cell, f.value) >= 0;
    case "<":
      return compare(cell, f.value) < 0;
    case "<=":
      return compare(cell, f.value) <= 0;
    case "contains":
      return text.includes(want);
    case "starts_with":
      return text.startsWith(want);
  }
}

function aggregate(rows: Row[], fn: string, column: string | undefined): number | string | null {
  if (fn === "count") return column ? rows.filter((r) => (r[column] ?? "") !== "").length : rows.length;
  const values = rows.map((r) => r[column!] ?? "").filter((v) => v !== "");
  if (fn === "count_distinct") return new Set(values).size;
  if (fn === "min" || fn === "max") {
    if (values.length === 0) return null;
    const sorted = [...values].sort(compare);
    const v = fn === "min" ? sorted[0] : sorted[sorted.length - 1];
    return asNumber(v) ?? v;
  }
  const numbers = values.map(asNumber).filter((n): n is number => n !== undefined);
  if (numbers.length === 0) return null;
  const sum = numbers.reduce((a, b) => a + b, 0);
  return Number((fn === "sum" ? sum : sum / numbers.length).toPrecision(12));
}

/** Runs one query over the table; throws an Error naming unknown columns. */
export function runCsvQuery(
  table: CsvTable,
  q: CsvQuery,
): { matched: number; rows: Record<string, unknown>[]; more: boolean } {
  const named = [
    ...(q.filters ?? []).map((f) => f.column),
    ...(q.groupBy ?? []),
    ...(q.aggregates ?? []).flatMap((a) => (a.column ? [a.column] : [])),
    ...(q.aggregates?.length ? [] : (q.columns ?? [])),
  ];
  const unknown = named.filter((c) => !table.columns.includes(c));
  if (unknown.length)
    throw new Error(
      `unknown column ${unknown.map((c) => `"${c}"`).join(", ")}; the columns are: ${table.columns.join(", ")}`,
    );
  const aggs = q.aggregates ?? [];
  const missingColumn = aggs.find((a) => a.fn !== "count" && !a.column);
  if (missingColumn) throw new Error(`${missingColumn.fn} needs a column`);

  const matching = table.rows.filter((row) => (q.filters ?? []).every((f) => matches(row, f)));
  let out: Record<string, unknown>[];
  if (aggs.length || q.groupBy?.length) {
    const groups = new Map<string, Row[]>();
    for (const row of matching) {
      const key = JSON.stringify((q.groupBy ?? []).map((c) => row[c] ?? ""));
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    if (groups.size === 0 && !q.groupBy?.length) groups.set("[]", []);
    out = [...groups.entries()].map(([key, rows]) => {
      const values = JSON.parse(key) as string[];
      const record: Record<string, unknown> = Object.fromEntries((q.groupBy ?? []).map((c, i) => [c, values[i]]));
      for (const a of aggs.length ? aggs : [{ fn: "count" as const, column: undefined }])
        record[a.column ? `${a.fn}_${a.column}` : a.fn] = aggregate(rows, a.fn, a.column);
      return record;
    });
  } else {
    const cols = q.columns?.length ? q.columns : table.columns;
    out = matching.map((row) => Object.fromEntries(cols.map((c) => [c, row[c] ?? ""])));
  }
  for (const s of [...(q.sortBy ?? [])].reverse()) {
    if (out.length && !(s.column in out[0]))
      throw new Error(`cannot sort by "${s.column}": the result's columns are ${Object.keys(out[0]).join(", ")}`);
    out.sort((a, b) => (s.direction === "desc" ? -1 : 1) * compare(a[s.column], b[s.column]));
  }
  const limit = q.limit ?? 20;
  return { matched: out.length, rows: out.slice(0, limit), more: out.length > limit };
}

/** The CSV query tool over one table. */
export function csvQueryTool(table: CsvTable): StructuredToolInterface {
  return tool(
    async (q) => {
      const r = runCsvQuery(table, q);
      return JSON.stringify({
        resultRows: r.matched,
        rows: r.rows,
        ...(r.more ? { note: `only the first ${r.rows.length} rows are shown` } : {}),
      });
    },
    {
      name: "csv_query",
      description:
        "Queries the CSV data: filter rows, group, aggregate (count, sum, avg, min, max, count_distinct), choose columns, sort and limit. Answers JSON rows.",
      schema: csvQuerySchema,
      verboseParsingErrors: true,
    },
  ) as unknown as StructuredToolInterface;
}

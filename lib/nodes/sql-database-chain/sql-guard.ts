// node-sql-parser is CommonJS without named ESM exports: Node's own loader (the worker, `npm start`)
// finds only its default export, so the class is read from that.
import sqlParser from "node-sql-parser";
import { AppError } from "@/common/errors";

/**
 * The SQL Database Chain's read-only rule, before anything reaches the database: the model's SQL is
 * read by a real SQL parser (node-sql-parser, the dialect's grammar) and must be exactly one SELECT,
 * without INTO and without functions that act outside the query (ending sessions, reading server
 * files, large objects, other databases, settings, locks, notifications). What the parser cannot
 * read is refused too. The query then runs in a READ ONLY transaction with a statement timeout and a
 * row cap (./postgres.ts), so a SELECT that would still write is stopped by the database.
 */

const parser = new sqlParser.Parser();

/** Functions a SELECT may call that act outside the query (PostgreSQL and MySQL/MariaDB names). */
const DENIED_FUNCTION =
  /^(pg_(terminate|cancel)_backend|pg_read_(binary_)?file|pg_ls_\w+|pg_stat_file|lo_\w+|dblink\w*|set_config|pg_advisory\w*|pg_try_advisory\w*|pg_notify|pg_reload_conf|pg_rotate_logfile|pg_switch_wal|pg_create_\w+|pg_drop_\w+|pg_logical_\w+|pg_promote|(query|table|cursor)_to_xml\w*|(query|table|cursor)_to_xmlschema|(query|table|cursor)_to_xml_and_xmlschema|load_file|sleep|benchmark|get_lock|release_lock|release_all_locks|is_used_lock|master_pos_wait|source_pos_wait|sys_exec|sys_eval)$/i;

function functionNames(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) functionNames(item, out);
  } else if (node && typeof node === "object") {
    const obj = node as Record<string, unknown>;
    if ((obj.type === "function" || obj.type === "aggr_func") && obj.name) {
      const name = obj.name as { name?: { value?: unknown }[] } | string;
      const text = typeof name === "string" ? name : (name.name ?? []).map((p) => String(p.value ?? "")).join(".");
      out.push(text);
    }
    for (const value of Object.values(obj)) functionNames(value, out);
  }
  return out;
}

const refuse = (label: string, sql: string, why: string) =>
  new AppError(
    "unprocessable",
    `${label}: the model's SQL was not run: ${why}. Only one SELECT is allowed. The SQL: ${sql.slice(0, 500)}`,
    { details: { sql: sql.slice(0, 2000), reason: why } },
  );

/** The statement kinds of a parse (DROP, UPDATE…), upper case, for messages. */
const kinds = (list: unknown[]) =>
  list.map((s) => String((s as { type?: unknown })?.type ?? "unknown").toUpperCase()).join(", ");

/**
 * Returns the query ready to run (no trailing semicolon) when `sql` is one SELECT; throws AppError
 * unprocessable (422) naming what it is otherwise. `database` is node-sql-parser's dialect name.
 */
export function assertSingleSelect(sql: string, label: string, database = "postgresql"): string {
  const text = sql.trim().replace(/;\s*$/, "").trim();
  if (!text) throw refuse(label, sql, "the model answered no SQL");
  let ast: unknown;
  try {
    ast = parser.astify(text, { database });
  } catch (e) {
    throw refuse(
      label,
      sql,
      `the SQL parser could not read it as one statement (${(e as Error).message.slice(0, 200)})`,
    );
  }
  const list = (Array.isArray(ast) ? ast : [ast]).filter(Boolean);
  if (list.length !== 1) throw refuse(label, sql, `it holds ${list.length} statements (${kinds(list)})`);
  const stmt = list[0] as { type?: string; into?: { position?: unknown; expr?: unknown } };
  if (stmt.type !== "select") throw refuse(label, sql, `it is ${kinds(list)}, not SELECT`);
  if (stmt.into && (stmt.into.position || stmt.into.expr))
    throw refuse(label, sql, "it is SELECT … INTO, which writes a table");
  const denied = functionNames(stmt).find((n) => DENIED_FUNCTION.test(n.split(".").at(-1) ?? n));
  if (denied) throw refuse(label, sql, `it calls ${denied}(), which acts outside the query`);
  return text;
}

/** The SQL in a model's answer: a ```sql fence's content, else the text after "SQLQuery:", else the text. */
export function extractSql(answer: string): string {
  const fenced = /```(?:sql|postgresql|postgres|mysql|mariadb)?\s*([\s\S]*?)```/i.exec(answer)?.[1];
  if (fenced) return fenced.trim();
  const labelled = /SQLQuery:\s*([\s\S]*?)(\n\s*SQLResult:|$)/i.exec(answer)?.[1];
  return (labelled ?? answer).trim();
}

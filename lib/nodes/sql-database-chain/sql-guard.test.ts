import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { assertSingleSelect, extractSql } from "./sql-guard";

// The read-only rule as the parser sees it: only one SELECT passes; anything else is 422 naming it.

const refusal = (sql: string) => {
  try {
    assertSingleSelect(sql, "SQL chain");
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(422);
    return (e as AppError).message;
  }
  throw new Error(`not refused: ${sql}`);
};

describe("assertSingleSelect", () => {
  it("lets one SELECT through (joins, CTEs, unions, a trailing semicolon), ready to wrap", () => {
    expect(assertSingleSelect("SELECT name FROM t WHERE id = 1;", "x")).toBe("SELECT name FROM t WHERE id = 1");
    expect(assertSingleSelect("WITH a AS (SELECT 1 AS n) SELECT n FROM a", "x")).toBe(
      "WITH a AS (SELECT 1 AS n) SELECT n FROM a",
    );
    expect(assertSingleSelect("SELECT 1 UNION SELECT 2", "x")).toBe("SELECT 1 UNION SELECT 2");
  });

  it("refuses every other statement by its kind", () => {
    expect(refusal("DROP TABLE orders")).toMatch(/SQL chain: the model's SQL was not run: it is DROP, not SELECT/);
    expect(refusal("UPDATE orders SET total = 0")).toContain("it is UPDATE, not SELECT");
    expect(refusal("DELETE FROM orders")).toContain("it is DELETE, not SELECT");
    expect(refusal("INSERT INTO orders VALUES (1)")).toContain("it is INSERT, not SELECT");
  });

  it("refuses several statements, SELECT … INTO, and functions acting outside the query", () => {
    expect(refusal("SELECT 1; DROP TABLE orders")).toContain("it holds 2 statements (SELECT, DROP)");
    expect(refusal("SELECT * INTO copy FROM orders")).toContain("SELECT … INTO");
    expect(refusal("SELECT pg_terminate_backend(42)")).toContain("it calls pg_terminate_backend()");
    expect(refusal("SELECT pg_read_file('/etc/passwd')")).toContain("pg_read_file()");
    expect(refusal("SELECT name FROM t WHERE lo_unlink(1) = 1")).toContain("lo_unlink()");
  });

  it("refuses what the parser cannot read, and nothing at all", () => {
    expect(refusal("WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d")).toContain("could not read it");
    expect(refusal("I cannot answer that.")).toContain("could not read it");
    expect(refusal("  ;")).toContain("no SQL");
  });
});

describe("extractSql", () => {
  it("reads a fenced block, a SQLQuery: line, or the whole answer", () => {
    expect(extractSql("Here:\n```sql\nSELECT 1\n```\nDone")).toBe("SELECT 1");
    expect(extractSql("SQLQuery: SELECT 2\nSQLResult: …")).toBe("SELECT 2");
    expect(extractSql(" SELECT 3 ")).toBe("SELECT 3");
  });
});

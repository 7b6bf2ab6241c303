import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "../env";
import { asDatabaseUnavailable, databaseUnavailableReason } from "./unavailable";

const before = process.env.DATABASE_URL;
afterEach(() => {
  process.env.DATABASE_URL = before;
  resetEnvForTests();
});

function onServer(url = "postgresql://app:hunter22@db.internal:6543/app") {
  process.env.DATABASE_URL = url;
  resetEnvForTests();
}

const socketError = (code: string, port?: number) =>
  Object.assign(new Error(`connect ${code}`), { code, syscall: "connect", errno: -1, port });

describe("a lost database as 503", () => {
  it("recognises Prisma's, the driver adapter's and node-postgres's ways of saying the server is gone", () => {
    onServer();
    const cases: [unknown, string][] = [
      [
        { code: "P1001", meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable", port: 6543 } } } },
        "DatabaseNotReachable",
      ],
      [{ code: "P2010", meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } } }, "ConnectionClosed"],
      [{ meta: { driverAdapterError: { cause: { kind: "postgres", code: "57P01" } } } }, "SQLSTATE 57P01"],
      [new Error("Connection terminated unexpectedly"), "connection lost"],
      [new Error("outer", { cause: socketError("ECONNREFUSED", 6543) }), "ECONNREFUSED"],
      [{ code: "57P03" }, "SQLSTATE 57P03"],
    ];
    for (const [err, reason] of cases) expect(databaseUnavailableReason(err), reason).toBe(reason);
  });

  it("leaves other errors alone: bad queries, and socket errors of other servers (a flow's upstream)", () => {
    onServer();
    for (const err of [
      { code: "P2002" },
      { meta: { driverAdapterError: { cause: { kind: "postgres", code: "42P01" } } } },
      new TypeError("fetch failed", { cause: socketError("ECONNREFUSED", 11434) }),
      socketError("ECONNRESET"),
      new Error("boom"),
      null,
    ])
      expect(databaseUnavailableReason(err)).toBeNull();
  });

  it("names host:port, never the URL with its password; PGlite errors are never mapped", () => {
    onServer();
    const e = asDatabaseUnavailable(new Error("Connection terminated unexpectedly"));
    expect(e?.status).toBe(503);
    expect(e?.code).toBe("database_unavailable");
    expect(e?.message).toBe("PostgreSQL at db.internal:6543 is unreachable (connection lost).");
    expect(e?.message).not.toContain("hunter22");
    onServer("pglite:memory://");
    expect(asDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBeNull();
  });
});

import { randomBytes } from "node:crypto";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { systemCaller } from "../../dev/callers";
import { createModelStub, scriptedBrain, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// The SQL Database Chain on MySQL/MariaDB (this machine kind runs MariaDB on 127.0.0.1:3306, root
// without a password): a throwaway database, the model's SELECT run read-only with the row cap, a
// write refused before the database sees it, a SELECT that writes stopped by the READ ONLY transaction.
const dbName = `sy_mysql_chain_${randomBytes(4).toString("hex")}`;
const admin = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306";
let root: mysql.Connection;
let model: ModelStub;
let session: Record<string, string>;
let flowId: string;

beforeAll(async () => {
  root = await mysql.createConnection(admin);
  await root.query(`CREATE DATABASE ${dbName}`);
  await root.query(`CREATE TABLE ${dbName}.orders (id INT PRIMARY KEY, customer VARCHAR(50), total DECIMAL(8,2))`);
  await root.query(`INSERT INTO ${dbName}.orders VALUES (1, 'Ada', 30.00), (2, 'Grace', 12.50), (3, 'Linus', 7.25)`);
  model = await createModelStub();
  const server = new URL(admin);
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: `${server.host},${new URL(model.url).host}` });
  resetEnvForTests();
  session = await auth.session(
    (await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" })).id,
  );
  const credential = await createCredential(
    {
      name: "Shop (MariaDB)",
      type: "sqlDatabase",
      data: {
        dialect: "mysql",
        host: server.hostname,
        port: Number(server.port || 3306),
        database: dbName,
        user: decodeURIComponent(server.username || "root"),
        ...(server.password ? { password: decodeURIComponent(server.password) } : {}),
      },
    },
    systemCaller,
  );
  const graph = {
    nodes: [
      {
        id: "model",
        type: "chatOpenAICompatible",
        position: { x: 0, y: 0 },
        data: { inputs: { baseURL: model.url, temperature: 0 } },
      },
      {
        id: "sql",
        type: "sqlDatabaseChain",
        position: { x: 300, y: 0 },
        data: { inputs: { credential: credential.id, maxRows: 2 } },
      },
    ],
    edges: [
      { id: "e", source: "model", sourceHandle: "model:out:chatModel", target: "sql", targetHandle: "sql:in:model" },
    ],
  } as Graph;
  flowId = (await createChatflow({ name: "Shop SQL", graph }, systemCaller)).id;
});
afterAll(async () => {
  await root.query(`DROP DATABASE IF EXISTS ${dbName}`);
  await root.end();
  await model.close();
});

const ask = (question: string) =>
  call(prediction.POST, { method: "POST", params: { id: flowId }, headers: session, body: { question } });

describe("SQL Database Chain on MySQL/MariaDB", () => {
  it("describes the tables in MySQL's words, runs the SELECT with the row cap, answers from the rows", async () => {
    model.setBrain(
      scriptedBrain([
        { content: "```sql\nSELECT `customer`, `total` FROM `orders` ORDER BY `total` DESC\n```" },
        { content: "Ada spent the most." },
      ]),
    );
    const before = model.requests.length;
    const res = await ask("Who spent the most?");
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("Ada spent the most.");
    const [write, answer] = model.requests.slice(before).map((r) => JSON.stringify(r.body));
    expect(write).toContain("MySQL SELECT query");
    expect(write).toContain("CREATE TABLE `orders`");
    expect(write).toContain("backticks");
    expect(answer).toContain(
      '[{\\"customer\\":\\"Ada\\",\\"total\\":\\"30.00\\"},{\\"customer\\":\\"Grace\\",\\"total\\":\\"12.50\\"}]',
    );
    expect(answer).toContain("only the first 2 rows are shown");
  });

  it("anything but one SELECT is 422 and never reaches the database", async () => {
    model.setBrain(scriptedBrain([{ content: `DELETE FROM orders` }]));
    const res = await ask("Delete everything");
    expect(res.status).toBe(422);
    expect(res.json.error.message).toContain("not SELECT");
    model.setBrain(scriptedBrain([{ content: "SELECT LOAD_FILE('/etc/passwd')" }]));
    const file = await ask("Read a file");
    expect(file.status).toBe(422);
    expect(file.json.error.message).toMatch(/load_file/i);
    const [rows] = await root.query<mysql.RowDataPacket[]>(`SELECT count(*) AS n FROM ${dbName}.orders`);
    expect(Number(rows[0].n)).toBe(3);
  });
});

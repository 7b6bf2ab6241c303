import { beforeAll, describe, expect, it } from "vitest";
import * as apikeys from "../../app/api/v1/apikey/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as users from "../../app/api/v1/users/route";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";

// Flowise stored API keys and credentials readable in its database. Here an API key is stored only
// as a hash, credentials only encrypted, passwords only as slow hashes: after creating each through
// the API, no text column of any table holds the raw value (or a recognisable part of it).

const ADMIN = { email: "admin@secrets.test", password: "admin-password-raw-1", name: "Admin" };
const CREDENTIAL_SECRET = "sk-live-credential-SECRET-4f1d2c";
const HEADER_SECRET = "header-token-SECRET-9a8b7c";
const USER_PASSWORD = "builder-password-raw-2";
let session: Record<string, string>;
let apiKey: string;

beforeAll(async () => {
  const admin = await setupFirstAdmin(ADMIN);
  session = await auth.session(admin.id, ADMIN.email);
  const key = await call(apikeys.POST, {
    method: "POST",
    headers: session,
    body: { name: "raw key", permissions: ["predict"] },
  });
  expect(key.status).toBe(201);
  apiKey = key.json.key;
  for (const body of [
    { name: "OpenAI", type: "openai", data: { apiKey: CREDENTIAL_SECRET } },
    {
      name: "Headers",
      type: "httpHeaders",
      data: { allowedHosts: ["api.example.com"], headers: { "X-Api-Key": HEADER_SECRET } },
    },
  ]) {
    const res = await call(credentials.POST, { method: "POST", headers: session, body });
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain("SECRET");
  }
  const user = await call(users.POST, {
    method: "POST",
    headers: session,
    body: { email: "b@secrets.test", name: "B", password: USER_PASSWORD, role: "builder" },
  });
  expect(user.status, user.text).toBe(201);
});

/** Every text-like column of every table in the app's schema, with its rows' values as text. */
async function everyTextValue(): Promise<{ where: string; value: string }[]> {
  const db = await getDb();
  const columns = await db.$queryRawUnsafe<{ table_name: string; column_name: string }[]>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'USER-DEFINED', 'ARRAY')`,
  );
  const values: { where: string; value: string }[] = [];
  for (const { table_name, column_name } of columns) {
    const rows = await db.$queryRawUnsafe<{ v: string | null }[]>(
      `SELECT "${column_name}"::text AS v FROM "${table_name}"`,
    );
    for (const r of rows) if (r.v !== null) values.push({ where: `${table_name}.${column_name}`, value: r.v });
  }
  return values;
}

describe("plaintext secrets at rest", () => {
  it("scans real tables (users, keys and credentials are there)", async () => {
    const where = new Set((await everyTextValue()).map((v) => v.where.split(".")[0]));
    for (const table of ["User", "ApiKey", "Credential"]) expect(where).toContain(table);
  });

  it("stores no API key, credential secret or password in any text column of any table", async () => {
    // `sy_<8 hex>_<43 base64url>`: the secret may itself contain "_", so cut after the prefix.
    const secretPart = apiKey.slice("sy_00000000_".length);
    expect(secretPart).toHaveLength(43);
    const needles = [apiKey, secretPart, CREDENTIAL_SECRET, HEADER_SECRET, ADMIN.password, USER_PASSWORD];
    // Also the base64 and hex spellings, so an "encoding" is not mistaken for protection.
    const spelled = needles.flatMap((n) => [
      n,
      Buffer.from(n).toString("base64").replace(/=+$/, ""),
      Buffer.from(n).toString("hex"),
    ]);
    const found = (await everyTextValue()).flatMap(({ where, value }) =>
      spelled.filter((n) => value.includes(n)).map((n) => `${where} holds ${n}`),
    );
    expect(found).toEqual([]);
  });

  it("never answers a credential's secret on the list endpoint", async () => {
    const res = await call(credentials.GET, { headers: session });
    expect(res.status).toBe(200);
    expect(res.json.length).toBe(2);
    expect(res.text).not.toContain("SECRET");
  });
});

import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import { SqlDatabaseChain } from "./chain";
import type { sqlDatabaseChainDefinition } from "./definition";
import type { SqlConnection } from "./postgres";

const names = (list: string | undefined) =>
  (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Builds the SQL Database Chain from its model and a "sqlDatabase" credential. Nothing connects until a question. */
export const buildSqlDatabaseChain: RuntimeOf<typeof sqlDatabaseChainDefinition> = async ({
  params,
  inputs,
  ctx,
  label,
}) => {
  const cred = await ctx.resolveCredential(params.credential);
  if (cred.type !== "sqlDatabase")
    throw new AppError("invalid_graph", `${label}: the credential "${cred.name}" is not a SQL database credential.`);
  const data = cred.data as Partial<SqlConnection> & { dialect?: string };
  const dialect = data.dialect === "mysql" ? "mysql" : "postgres";
  if (!data.host || !data.database || !data.user)
    throw new AppError("invalid_graph", `${label}: the credential "${cred.name}" needs a host, a database and a user.`);
  const connection: SqlConnection = {
    host: data.host,
    port: typeof data.port === "number" ? data.port : dialect === "mysql" ? 3306 : 5432,
    database: data.database,
    user: data.user,
    password: typeof data.password === "string" ? data.password : undefined,
    ssl: data.ssl === true,
  };
  return new SqlDatabaseChain({
    model: inputs.model,
    connection,
    dialect,
    limits: { timeoutMs: params.timeoutSeconds * 1000, maxRows: params.maxRows },
    tables: { include: names(params.includeTables), ignore: names(params.ignoreTables), sampleRows: params.sampleRows },
    topK: params.topK,
    customPrompt: params.customPrompt,
    label,
  });
};

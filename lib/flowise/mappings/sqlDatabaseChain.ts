import { anchor, defineMapping, ignore, param, toInteger, toText } from "../rules";

/**
 * Flowise "Sql Database Chain" → our SQL Database Chain (read-only; PostgreSQL, MySQL or MariaDB). Flowise keeps the
 * database kind and its connection string in the node (a password in plain text); ours is a SQL
 * database credential the import cannot create: both are left out, with a warning to connect one.
 */
export const sqlDatabaseChain = defineMapping({
  flowise: "sqlDatabaseChain",
  type: "sqlDatabaseChain",
  inputs: {
    model: anchor("model"),
    // Flowise's database kind (often SQLite, a file on the Flowise server) cannot come along: the
    // builder connects a credential to a PostgreSQL, MySQL or MariaDB server instead.
    database: ignore(
      "the database is a SQL database credential here",
      () => true,
      "connect a SQL database credential (PostgreSQL, MySQL or MariaDB; SQLite files are not supported) to the SQL Database Chain",
    ),
    url: ignore(
      "a connection string is not imported (it may hold a password)",
      () => true,
      "the connection string was not imported: put the database in a SQL database credential",
    ),
    includesTables: param("includeTables", toText),
    ignoreTables: param("ignoreTables", toText),
    sampleRowsInTableInfo: param("sampleRows", toInteger),
    topK: param("topK", toInteger),
    customPrompt: param("customPrompt", toText),
  },
});

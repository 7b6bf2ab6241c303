import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { NO_STREAM_TAG, recordToolStart, recordUsedTool } from "../events";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import { messageText } from "../shared/messages";
import {
  describeTables,
  readOnlySession,
  runSelect,
  type SqlConnection,
  type SqlLimits,
  type TableFilter,
} from "./postgres";
import { mysqlDescribeTables, mysqlReadOnlySession, mysqlRunSelect } from "./mysql";
import { assertSingleSelect, extractSql } from "./sql-guard";

/** What each dialect runs with: its sessions, schema text and capped SELECT, and how it is named and parsed. */
const DIALECTS = {
  postgres: {
    name: "PostgreSQL",
    parserDatabase: "postgresql",
    quoting: "quote identifiers with double quotes",
    describe: (c: SqlConnection, l: SqlLimits, label: string, t: TableFilter, signal?: AbortSignal) =>
      readOnlySession(c, l, label, (client) => describeTables(client, t), signal),
    select: (c: SqlConnection, l: SqlLimits, label: string, sql: string, signal?: AbortSignal) =>
      readOnlySession(c, l, label, (client) => runSelect(client, sql, l.maxRows), signal),
  },
  mysql: {
    name: "MySQL",
    parserDatabase: "mysql",
    quoting: "quote identifiers with backticks",
    describe: (c: SqlConnection, l: SqlLimits, label: string, t: TableFilter, signal?: AbortSignal) =>
      mysqlReadOnlySession(c, l, label, (client) => mysqlDescribeTables(client, t), signal),
    select: (c: SqlConnection, l: SqlLimits, label: string, sql: string, signal?: AbortSignal) =>
      mysqlReadOnlySession(c, l, label, (client) => mysqlRunSelect(client, sql, l.maxRows), signal),
  },
} as const;

export type SqlDialect = keyof typeof DIALECTS;

export interface SqlChainOptions {
  model: BaseChatModel;
  connection: SqlConnection;
  dialect: SqlDialect;
  limits: SqlLimits;
  tables: TableFilter;
  topK: number;
  /** The builder's prompt for writing the query: {input}, {table_info}, {top_k} and {dialect} filled in. */
  customPrompt?: string;
  label: string;
}

/** The name the query shows under in usedTools and tool events. */
export const SQL_TOOL_NAME = "sql_db_query";

const DEFAULT_PROMPT =
  "Given the question below, write one syntactically correct {dialect} SELECT query that answers it. " +
  "Unless the question asks for a specific number of rows, return at most {top_k} rows with LIMIT. " +
  "Select only the columns needed, never all columns, and {quoting}. " +
  "Use only the tables and columns below, and only columns that exist.\n\n{table_info}\n\n" +
  "Answer with the SQL query only, without explanation.\n\nQuestion: {input}";

/**
 * Flowise's SQL Database Chain, read-only: (1) the tables are described to the model, (2) the model
 * writes a query, (3) it must be one SELECT (./sql-guard.ts: anything else is 422 and nothing runs),
 * (4) it runs in a READ ONLY transaction with a statement timeout and a row cap, (5) the model
 * answers the question from the rows.
 */
export class SqlDatabaseChain extends FlowChain {
  constructor(private readonly opts: SqlChainOptions) {
    super({});
  }

  _chainType() {
    return "switchyard_sql_database_chain";
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const { connection, limits, label } = this.opts;
    const dialect = DIALECTS[this.opts.dialect];
    const tableInfo = await dialect.describe(connection, limits, label, this.opts.tables, turn.signal);
    const prompt = (this.opts.customPrompt || DEFAULT_PROMPT)
      .replaceAll("{dialect}", dialect.name)
      .replaceAll("{quoting}", dialect.quoting)
      .replaceAll("{top_k}", String(this.opts.topK))
      .replaceAll("{table_info}", tableInfo)
      .replaceAll("{input}", turn.question);
    const written = await this.opts.model.invoke(
      [new HumanMessage(prompt)],
      childConfig(runManager, turn.signal, [NO_STREAM_TAG]),
    );
    const sql = assertSingleSelect(extractSql(messageText(written)), label, dialect.parserDatabase);
    await recordToolStart(runManager, SQL_TOOL_NAME, { query: sql });
    const result = await dialect.select(connection, limits, label, sql, turn.signal);
    const rowsText =
      JSON.stringify(result.rows) +
      (result.truncated ? `\n(only the first ${limits.maxRows} rows are shown; more matched)` : "");
    await recordUsedTool(runManager, { tool: SQL_TOOL_NAME, toolInput: { query: sql }, toolOutput: rowsText });
    const reply = await this.opts.model.invoke(
      [
        new SystemMessage(
          "You answer the user's question from the result of a SQL query run for it. " +
            "Use only the rows given; if they do not answer the question, say so briefly.",
        ),
        new HumanMessage(`Question: ${turn.question}\n\nSQL query: ${sql}\n\nResult rows (JSON): ${rowsText}`),
      ],
      childConfig(runManager, turn.signal),
    );
    return messageText(reply);
  }
}

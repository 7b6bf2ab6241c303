import { AppError } from "@/common/errors";
import { parseDataUrl } from "@/common/files/data-url";
import type { RuntimeOf } from "../define";
import { ToolAgentChain } from "../tool-agent/agent";
import type { csvAgentDefinition } from "./definition";
import { csvQueryTool, parseCsv, type CsvTable } from "./query";

/** A file param holds the file's text, or a data: URL of it (as browsers read uploads). */
function fileText(value: string): string {
  const url = parseDataUrl(value);
  if (!url) return value;
  return url.base64 ? Buffer.from(url.data, "base64").toString("utf8") : decodeURIComponent(url.data);
}

/** What the model is told of the data: its columns, row count and a few rows. */
function describeTable(table: CsvTable): string {
  const sample = table.rows.slice(0, 3).map((r) => JSON.stringify(r));
  return (
    `The CSV data has ${table.rows.length} rows and these columns: ${table.columns.join(", ")}.\n` +
    `The first rows:\n${sample.join("\n")}\n\n` +
    "Answer questions about the data by calling csv_query (several times if needed); never guess numbers the data can give."
  );
}

/** Builds the CSV agent: parses the file once, then a tool-calling agent with the CSV query tool. */
export const buildCsvAgent: RuntimeOf<typeof csvAgentDefinition> = async ({ params, inputs, label }) => {
  const { model } = inputs;
  if (typeof model.bindTools !== "function")
    throw new AppError("invalid_graph", `${label}: the connected chat model does not support tool calling.`);
  const table = parseCsv(fileText(params.file), label);
  return new ToolAgentChain({
    model,
    tools: [csvQueryTool(table)],
    systemMessage: [params.systemMessage, describeTable(table)].filter(Boolean).join("\n\n"),
    maxIterations: params.maxIterations,
  });
};

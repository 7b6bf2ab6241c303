import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import { runEndingChain } from "../../flow/run";
import { getDefinition } from "../registry";
import type { ToolAgentChain } from "../tool-agent/agent";
import { csvAgent } from ".";
import { parseCsv, runCsvQuery } from "./query";

// The CSV agent's query tool over parsed rows (no code run), alone and as the agent calls it.

const CSV = `name,city,age,fare
Ada,London,36,71.28
Grace,New York,45,8.05
Linus,Helsinki,28,53.1
Alan,London,41,
Margaret,Boston,33,12.5
`;
const table = parseCsv(CSV, "CSV Agent");

describe("CSV query", () => {
  it("filters with numbers as numbers and text case-insensitively, picks columns, sorts and limits", () => {
    expect(runCsvQuery(table, { filters: [{ column: "age", op: ">", value: "35" }], columns: ["name"] }).rows).toEqual([
      { name: "Ada" },
      { name: "Grace" },
      { name: "Alan" },
    ]);
    expect(
      runCsvQuery(table, { filters: [{ column: "city", op: "=", value: "london" }], columns: ["name"] }).matched,
    ).toBe(2);
    const oldest = runCsvQuery(table, {
      columns: ["name", "age"],
      sortBy: [{ column: "age", direction: "desc" }],
      limit: 2,
    });
    expect(oldest).toEqual({
      matched: 5,
      rows: [
        { name: "Grace", age: "45" },
        { name: "Alan", age: "41" },
      ],
      more: true,
    });
  });

  it("aggregates, over all rows or per group; empty cells are left out", () => {
    expect(runCsvQuery(table, { aggregates: [{ fn: "count" }, { fn: "avg", column: "fare" }] }).rows).toEqual([
      { count: 5, avg_fare: 36.2325 },
    ]);
    const byCity = runCsvQuery(table, {
      groupBy: ["city"],
      aggregates: [{ fn: "count" }, { fn: "max", column: "age" }],
      sortBy: [{ column: "count", direction: "desc" }],
      limit: 1,
    });
    expect(byCity.rows).toEqual([{ city: "London", count: 2, max_age: 41 }]);
  });

  it("names unknown columns with the ones the file has", () => {
    expect(() => runCsvQuery(table, { filters: [{ column: "Age", op: "=", value: 1 }] })).toThrow(
      'unknown column "Age"; the columns are: name, city, age, fare',
    );
  });

  it("refuses a file without a header row or rows, naming the node", () => {
    expect(() => parseCsv("", "CSV Agent")).toThrow("CSV Agent: the CSV file has no header row or no rows.");
  });
});

describe("CSV Agent", () => {
  const build = async (model: ReturnType<typeof fakeModel>) =>
    (await csvAgent.runtime({
      nodeId: "csv",
      label: "CSV Agent",
      params: paramsSchemaFor(getDefinition("csvAgent")!).parse({
        file: `data:text/csv;name=people.csv;base64,${Buffer.from(CSV).toString("base64")}`,
      }),
      inputs: { model },
      ctx: testContext(),
    })) as ToolAgentChain;

  it("answers from the rows the model queries; a bad query is an observation it corrects", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "csv_query", args: { aggregates: [{ fn: "avg", column: "Fare" }] }, id: "c1" }])
      .respondWithTools([
        {
          name: "csv_query",
          args: { filters: [{ column: "city", op: "=", value: "London" }], aggregates: [{ fn: "count" }] },
          id: "c2",
        },
      ])
      .respond(new AIMessage("Two people live in London."));
    const result = await runEndingChain(
      await build(model),
      { question: "How many live in London?", history: [] },
      false,
    );
    expect(result.text).toBe("Two people live in London.");
    expect(result.usedTools.map((t) => t.toolOutput)).toEqual([
      expect.stringMatching(/^Tool error: unknown column "Fare"/),
      JSON.stringify({ resultRows: 1, rows: [{ count: 2 }] }),
    ]);
    const system = model.calls[0].messages[0].text;
    expect(system).toContain("5 rows and these columns: name, city, age, fare");
    expect(model.calls[2].messages.filter((m) => m instanceof ToolMessage)).toHaveLength(2);
  });
});

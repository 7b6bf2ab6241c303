import { describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { calculator } from ".";
import { evaluateExpression, formatResult, MAX_EXPRESSION_LENGTH, MAX_NESTING_DEPTH } from "./expression";

const calc = (text: string) => formatResult(evaluateExpression(text));

describe("calculator expression evaluator", () => {
  it("applies precedence, associativity, unary signs and parentheses", () => {
    expect(calc("1 + 2 * 3")).toBe("7");
    expect(calc("(1 + 2) * 3")).toBe("9");
    expect(calc("10 - 4 - 3")).toBe("3");
    expect(calc("2 ^ 3 ^ 2")).toBe("512");
    expect(calc("2 ** 10")).toBe("1024");
    expect(calc("-2 ^ 2")).toBe("-4");
    expect(calc("2 ^ -1")).toBe("0.5");
    expect(calc("--3 + +2")).toBe("5");
    expect(calc("17 % 5")).toBe("2");
    expect(calc("7 / 2")).toBe("3.5");
    expect(calc("0.1 + 0.2")).toBe("0.3");
    expect(calc(".5 * 4")).toBe("2");
    expect(calc("1.5e3 / 3")).toBe("500");
    expect(calc("6 × 7 ÷ 2")).toBe("21");
  });

  it("knows a few functions and constants", () => {
    expect(calc("sqrt(16) + abs(-3)")).toBe("7");
    expect(calc("round(2.567, 2)")).toBe("2.57");
    expect(calc("round(2.5)")).toBe("3");
    expect(calc("min(4, 2, 8) + max(1, 9)")).toBe("11");
    expect(calc("floor(2.7) + ceil(2.1)")).toBe("5");
    expect(calc("log(1000) + log(8, 2) + ln(e)")).toBe("7");
    expect(calc("2 * PI")).toBe(formatResult(2 * Math.PI));
    expect(calc("pow(2, 8)")).toBe("256");
  });

  it("refuses bad input with text an agent can act on", () => {
    const bad: [string, RegExp][] = [
      ["", /empty/],
      ["1 +", /ends too early/],
      ["(1 + 2", /Expected "\)"/],
      ["1 + 2)", /Unexpected "\)" at position 6/],
      ["2 $ 3", /Unexpected character "\$"/],
      ["foo(2)", /Unknown function "foo"/],
      ["x + 1", /Unknown name "x"/],
      ["constructor", /Unknown name/],
      ["__proto__(1)", /Unknown function/],
      ["toString(1)", /Unknown function/],
      ["sqrt(1, 2)", /sqrt\(\) takes 1 argument/],
      ["min()", /at least 1/],
      ["1 / 0", /Division by zero/],
      ["5 % 0", /Division by zero/],
      ["sqrt(-1)", /not a number/],
      ["10 ^ 400", /too large/],
      ["round(1.5, 0.5)", /digits must be/],
      ["1 2", /Unexpected "2"/],
    ];
    for (const [text, message] of bad) expect(() => evaluateExpression(text), text).toThrow(message);
  });

  it("limits input length and nesting depth", () => {
    expect(() => evaluateExpression(`${"1+".repeat(MAX_EXPRESSION_LENGTH)}1`)).toThrow(/too long/);
    const deep = (n: number) => `${"(".repeat(n)}1${")".repeat(n)}`;
    expect(calc(deep(MAX_NESTING_DEPTH))).toBe("1");
    expect(() => evaluateExpression(deep(MAX_NESTING_DEPTH + 1))).toThrow(/nested too deeply/);
    expect(() => evaluateExpression(`${"-".repeat(MAX_NESTING_DEPTH + 1)}1`)).toThrow(/nested too deeply/);
  });
});

describe("calculator node", () => {
  it("builds a tool that answers results and readable errors (never throws on bad input)", async () => {
    const params = paramsSchemaFor(getDefinition("calculator")!).parse({});
    const built = (await calculator.runtime({
      nodeId: "c",
      label: "Calculator",
      params,
      inputs: {},
      ctx: testContext(),
    })) as {
      name: string;
      invoke(input: unknown): Promise<string>;
    };
    expect(built.name).toBe("calculator");
    expect(await built.invoke({ expression: "(2 + 3) * 4" })).toBe("20");
    expect(await built.invoke({ expression: "2 +* 3" })).toMatch(/^Error: Unexpected "\*" at position 4/);
    expect(await built.invoke({ expression: "9".repeat(MAX_EXPRESSION_LENGTH + 1) })).toMatch(/^Error: .*too long/);
  });
});

import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { RuntimeOf } from "../define";
import type { calculatorDefinition } from "./definition";
import { evaluateExpression, ExpressionError, formatResult, MAX_EXPRESSION_LENGTH } from "./expression";

/**
 * A tool evaluating one arithmetic expression. A bad expression is answered, not thrown: the agent
 * reads "Error: …" as the observation and can correct itself (a throw would end the run).
 */
export const buildCalculator: RuntimeOf<typeof calculatorDefinition> = async ({ params }) =>
  tool(
    async ({ expression }) => {
      try {
        return formatResult(evaluateExpression(expression));
      } catch (err) {
        if (err instanceof ExpressionError) return `Error: ${err.message}`;
        throw err;
      }
    },
    {
      name: params.name,
      description: params.description,
      schema: z.object({
        // No .max() here: an over-long expression gets the evaluator's readable answer, not a schema throw.
        expression: z
          .string()
          .describe(`An arithmetic expression of at most ${MAX_EXPRESSION_LENGTH} characters, e.g. (2 + 3) * 4`),
      }),
    },
  );

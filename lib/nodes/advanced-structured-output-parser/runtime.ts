import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import { jsonSchemaParser } from "../shared/output-parser";
import type { advancedStructuredOutputParserDefinition } from "./definition";

/** Builds the advancedStructuredOutputParser node's object. */
export const buildAdvancedStructuredOutputParser: RuntimeOf<typeof advancedStructuredOutputParserDefinition> = async ({
  params,
  label,
  nodeId,
}) => {
  if (Array.isArray(params.schema))
    throw new AppError("invalid_graph", `Output parser "${label}": the JSON schema is a list, not a schema.`);
  try {
    return jsonSchemaParser(`"${label}" (${nodeId})`, params.schema);
  } catch (e) {
    throw new AppError(
      "invalid_graph",
      `Output parser "${label}": the JSON schema is not valid: ${(e as Error).message}`,
    );
  }
};

import type { RuntimeOf } from "../define";
import { commaListParser } from "../shared/output-parser";
import type { csvOutputParserDefinition } from "./definition";

/** Builds the csvOutputParser node's object. */
export const buildCsvOutputParser: RuntimeOf<typeof csvOutputParserDefinition> = async ({ label, nodeId }) =>
  commaListParser(`"${label}" (${nodeId})`);

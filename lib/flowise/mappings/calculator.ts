import { defineMapping } from "../rules";

/** Flowise "Calculator" → our Calculator (arithmetic by a parser, never evaluated as code). No inputs. */
export const calculator = defineMapping({ flowise: "calculator", type: "calculator", inputs: {} });

import { defineMapping } from "../rules";

/** Flowise "Serper" → our serper tool (its key goes in a credential of its kind). */
export const serper = defineMapping({
  flowise: "serper",
  type: "serper",
  credential: "credential",
  inputs: {},
});

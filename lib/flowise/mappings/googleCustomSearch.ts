import { defineMapping } from "../rules";

/** Flowise "Google Custom Search" → our googleCustomSearch tool (its key goes in a credential of its kind). */
export const googleCustomSearch = defineMapping({
  flowise: "googleCustomSearch",
  type: "googleCustomSearch",
  credential: "credential",
  inputs: {},
});

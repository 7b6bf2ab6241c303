import { defineMapping } from "../rules";

/** Flowise "Serp API" → our serpAPI tool (its key goes in a credential of its kind). */
export const serpAPI = defineMapping({
  flowise: "serpAPI",
  type: "serpAPI",
  credential: "credential",
  inputs: {},
});

import { defineMapping } from "../rules";

/** Flowise "BraveSearch API" → our braveSearch tool (its key goes in a credential of its kind). */
export const braveSearchAPI = defineMapping({
  flowise: "braveSearchAPI",
  type: "braveSearch",
  credential: "credential",
  inputs: {},
});

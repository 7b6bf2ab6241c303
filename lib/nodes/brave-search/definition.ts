import { webSearchDefinition } from "../shared/web-search";

export const braveSearchDefinition = webSearchDefinition({
  name: "braveSearch",
  label: "Brave Search",
  description: "Web results from the Brave Search API, as a tool an agent calls.",
  api: "braveSearch",
  toolName: "brave_search",
});

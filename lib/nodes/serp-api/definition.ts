import { webSearchDefinition } from "../shared/web-search";

export const serpAPIDefinition = webSearchDefinition({
  name: "serpAPI",
  label: "SerpAPI Search",
  description: "Google search results through SerpAPI, as a tool an agent calls.",
  api: "serpApi",
  toolName: "search",
});

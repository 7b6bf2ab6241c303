import { webSearchDefinition } from "../shared/web-search";

export const tavilySearchDefinition = webSearchDefinition({
  name: "tavilySearch",
  label: "Tavily Search",
  description: "Web search made for agents (Tavily), with a direct answer when it has one.",
  api: "tavily",
  toolName: "tavily_search",
});

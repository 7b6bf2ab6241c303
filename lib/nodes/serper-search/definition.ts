import { webSearchDefinition } from "../shared/web-search";

export const serperDefinition = webSearchDefinition({
  name: "serper",
  label: "Serper Search",
  description: "Google search results through Serper.dev, as a tool an agent calls.",
  api: "serper",
  toolName: "search",
});

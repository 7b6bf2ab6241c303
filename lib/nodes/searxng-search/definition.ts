import { webSearchDefinition } from "../shared/web-search";

export const searxngSearchDefinition = webSearchDefinition({
  name: "searxngSearch",
  label: "SearXNG Search",
  description: "Web results from your own SearXNG metasearch server, as a tool an agent calls.",
  api: "searxng",
  toolName: "searxng",
});

import { webSearchDefinition } from "../shared/web-search";

export const googleCustomSearchDefinition = webSearchDefinition({
  name: "googleCustomSearch",
  label: "Google Custom Search",
  description: "Results of your Programmable Search Engine (Google Custom Search JSON API), as a tool.",
  api: "googleCustomSearch",
  toolName: "google_custom_search",
});

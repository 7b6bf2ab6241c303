import { defineMapping, ignore, oneOf, param, toInteger } from "../rules";

const notSent = (what: string, ...defaults: unknown[]) =>
  ignore(`${what} is not sent by our Tavily tool`, defaults.length ? oneOf(...defaults) : () => false);

/** Flowise "Tavily API" → our Tavily search tool (which always asks for Tavily's direct answer). */
export const tavilyAPI = defineMapping({
  flowise: "tavilyAPI",
  type: "tavilySearch",
  credential: "credential",
  inputs: {
    maxResults: param("maxResults", toInteger),
    topic: notSent("a topic other than general", "general"),
    searchDepth: notSent("advanced search depth", "basic"),
    chunksPerSource: notSent("chunks per source", 3, "3"),
    days: notSent("a day range", 7, "7"),
    timeRange: notSent("a time range"),
    includeAnswer: ignore("our Tavily tool always includes Tavily's answer when it has one"),
    includeRawContent: notSent("raw page content", false, "false"),
    includeImages: notSent("image results", false, "false"),
    includeImageDescriptions: notSent("image descriptions", false, "false"),
    includeDomains: notSent("a domain allow list"),
    excludeDomains: notSent("a domain deny list"),
  },
});

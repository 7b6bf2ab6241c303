import { defineMapping, ignore } from "../rules";

/**
 * Flowise "Web Browser" → our Web Browser tool. Flowise's reads a page and has its own model and
 * embeddings pick the relevant parts; ours hands the agent the page's readable text (capped), so the
 * model and embeddings connected to it are not needed and are left out.
 */
export const webBrowser = defineMapping({
  flowise: "webBrowser",
  type: "webBrowser",
  inputs: {
    model: ignore(
      "the page's text goes to the agent's own model",
      undefined,
      "the Web Browser's own model is not carried over: the agent reads the page's text itself",
    ),
    embeddings: ignore(
      "the page is not searched by embeddings",
      undefined,
      "the Web Browser's embeddings are not carried over: the agent reads the page's text (capped) itself",
    ),
  },
});

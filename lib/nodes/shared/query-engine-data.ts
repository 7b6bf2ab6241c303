/**
 * Plain data of the query engine nodes, safe in the browser (their definitions import it): the
 * connection type names and LlamaIndex's default prompts ({context}, {query}, {existingAnswer}).
 */

/** Connection type names of the query engine nodes. */
export const QT = {
  responseSynthesizer: "ResponseSynthesizer",
  queryEngine: "BaseQueryEngine",
  queryEngineTool: "QueryEngineTool",
} as const;

export const DEFAULT_TEXT_QA_PROMPT =
  "Context information is below.\n---------------------\n{context}\n---------------------\nGiven the context information and not prior knowledge, answer the query.\nQuery: {query}\nAnswer:";
export const DEFAULT_REFINE_PROMPT =
  "The original query is as follows: {query}\nWe have provided an existing answer: {existingAnswer}\nWe have the opportunity to refine the existing answer (only if needed) with some more context below.\n------------\n{context}\n------------\nGiven the new context, refine the original answer to better answer the query. If the context isn't useful, return the original answer.\nRefined Answer:";
export const DEFAULT_TREE_SUMMARIZE_PROMPT =
  "Context information from multiple sources is below.\n---------------------\n{context}\n---------------------\nGiven the information from multiple sources and not prior knowledge, answer the query.\nQuery: {query}\nAnswer:";

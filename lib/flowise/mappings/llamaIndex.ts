/** The words every LlamaIndex mapping says in the import's warnings. */
export const llamaIndexNote = (flowise: string, ours: string) =>
  `Flowise's LlamaIndex node "${flowise}" was imported as our ${ours} (LangChain): the same role in the flow; check its settings.`;

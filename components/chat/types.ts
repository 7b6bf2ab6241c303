export type UsedTool = { tool: string; toolInput: unknown; toolOutput: unknown };
export type SourceDocument = { pageContent: string; metadata?: Record<string, unknown> };
export type ChatMessage = {
  id: number;
  role: "user" | "bot";
  text: string;
  usedTools?: UsedTool[];
  sourceDocuments?: SourceDocument[];
  error?: string;
  streaming?: boolean;
};

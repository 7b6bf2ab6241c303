import type { SourceDocument, UsedTool } from "@/lib/schemas/prediction-stream";

/** What the prediction stream's `usedTools` and `sourceDocuments` events carry (inferred from the schemas). */
export type { SourceDocument, UsedTool };
export type ChatMessage = {
  id: number;
  role: "user" | "bot";
  text: string;
  usedTools?: UsedTool[];
  sourceDocuments?: SourceDocument[];
  error?: string;
  streaming?: boolean;
};

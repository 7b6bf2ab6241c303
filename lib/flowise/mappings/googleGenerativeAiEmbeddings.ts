import { GEMINI_TASK_TYPES } from "../../nodes/google-genai-embeddings/definition";
import { defineMapping, ignore, param, toBoolean, toText } from "../rules";
import type { Convert } from "../types";

/** Flowise's task type, one of Gemini's (empty: unspecified). */
const toTaskType: Convert = (value) => {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) return { value: "TASK_TYPE_UNSPECIFIED" };
  return (GEMINI_TASK_TYPES as readonly string[]).includes(text)
    ? { value: text }
    : { drop: `"${text}" is not a Gemini task type (${GEMINI_TASK_TYPES.join(", ")})` };
};

/** Flowise "GoogleGenerativeAI Embeddings" → our Google Gemini embeddings (its key in a Gemini credential). */
export const googleGenerativeAiEmbeddings = defineMapping({
  flowise: "googleGenerativeAiEmbeddings",
  type: "googleGenerativeAiEmbeddings",
  credential: "credential",
  inputs: {
    modelName: param("modelName", toText),
    tasktype: param("taskType", toTaskType),
    stripNewLines: param("stripNewLines", toBoolean),
    cache: ignore("an embeddings cache has no equivalent", undefined, "the cache is not carried over"),
  },
});

import { z } from "zod";

/**
 * The multipart/form-data bodies of the routes taking uploads, as the OpenAPI document shows them
 * (route docs' `form`). The routes read the forms field by field (lib/http/body.ts; the prediction's
 * in lib/services/prediction-input.ts fromMultipartForm, the upsert's in upsert-request.ts).
 */

/** Flowise's form of POST /api/v1/prediction/{id}: files in `files`, JSON values as JSON text; other text fields are overrides. */
export const predictionFormSchema = z
  .looseObject({
    question: z.string().optional(),
    files: z
      .array(z.string().meta({ format: "binary" }))
      .optional()
      .meta({ description: "Images or audio, each at most UPLOAD_MAX_BYTES, at most UPLOAD_MAX_FILES" }),
    overrideConfig: z.string().optional().meta({ description: "A JSON object, as text" }),
    history: z
      .string()
      .optional()
      .meta({ description: "A JSON array of `{role, content}` (or `{type, message}`), as text" }),
    uploads: z
      .string()
      .optional()
      .meta({ description: "A JSON array of uploads as in the JSON body, as text; form files come after them" }),
    chatId: z.string().optional(),
    streaming: z.enum(["true", "false"]).optional(),
  })
  .meta({
    description:
      "Files in `files`; `overrideConfig`, `history`, `uploads` are JSON text; any other text field is an override (as `overrideConfig[field]`).",
  });

/** The form of POST /api/v1/vector/upsert/{id}: files in `files`, other fields as text. */
export const upsertFormSchema = z
  .looseObject({
    files: z.array(z.string().meta({ format: "binary" })).optional(),
    stopNodeId: z.string().optional(),
    returnSourceDocuments: z.enum(["true", "false"]).optional(),
  })
  .meta({ description: "Files in `files`; other fields are text (overrides as `overrideConfig[...]`)." });

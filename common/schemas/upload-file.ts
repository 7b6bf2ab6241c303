import { z } from "zod";

/** GET /api/v1/get-upload-file (Flowise): a chat's upload by chatflow, chat and file name. */
export const getUploadFileQuery = z.object({
  chatflowId: z.uuid({ error: "must be a chatflow UUID" }),
  chatId: z.string().trim().min(1, "is required").max(200),
  fileName: z.string().min(1, "is required").max(255),
});

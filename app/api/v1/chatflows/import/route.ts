import { importChatflows } from "@/common/access/permissions";
import { assertJsonDepth, assertNoNul } from "@/lib/http/input-checks";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { route } from "@/lib/http/route";
import { FLOWISE_IMPORT_MAX_BYTES, flowiseImportSchema } from "@/common/schemas/flowise-import";
import { importFlowiseChatflow, readFlowiseImport } from "@/lib/services/flowise-import";
import {
  errorResponseSchema,
  importUnmappedResponseSchema,
  importedChatflowResponseSchema,
} from "@/common/schemas/responses";
import { z } from "zod";

/**
 * Imports a Flowise chatflow (export `{nodes, edges}` or API record `{name, flowData}`) as a new
 * chatflow: 201 with the chatflow and `warnings` (credentials to connect…), or 400
 * `import_unmapped` listing what cannot be imported (nothing saved).
 */
export const POST = route(
  {
    auth: importChatflows,
    body: { json: flowiseImportSchema, maxBytes: FLOWISE_IMPORT_MAX_BYTES },
    idempotency: {},
    docs: {
      tag: "Chatflows",
      summary: "Import a Flowise chatflow as a new chatflow",
      description:
        "A Flowise export (`{nodes, edges}`) or a Flowise API record (`{name, flowData}`). Anything that cannot be mapped refuses the whole import (400 `import_unmapped`, nothing saved).",
      responses: {
        201: {
          description: "The new chatflow, with `warnings` (credentials to connect, settings approximated)",
          schema: importedChatflowResponseSchema,
        },
      },
      errorBodies: {
        400: {
          description:
            "Bad input (names the field), or `import_unmapped`: `error.details` lists `unmappedNodes` and `droppedInputs`; nothing was saved",
          schema: z.union([errorResponseSchema, importUnmappedResponseSchema]),
        },
      },
    },
  },
  async ({ body, caller }) => {
    if (body.flowData !== undefined) assertJsonDepth(body.flowData, "body.flowData");
    const input = readFlowiseImport(body);
    assertNoNul(input.flow, "body.flowData");
    return json(await importFlowiseChatflow(input, caller), 201);
  },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");

import { importChatflows } from "@/common/access/permissions";
import { assertJsonDepth, assertNoNul } from "@/lib/http/input-checks";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { route } from "@/lib/http/route";
import { FLOWISE_IMPORT_MAX_BYTES, flowiseImportSchema } from "@/common/schemas/flowise-import";
import { importFlowiseChatflow, readFlowiseImport } from "@/lib/services/flowise-import";

/**
 * Imports a Flowise chatflow (export `{nodes, edges}` or API record `{name, flowData}`) as a new
 * chatflow: 201 with the chatflow and `warnings` (credentials to connect…), or 400
 * `import_unmapped` listing what cannot be imported (nothing saved).
 */
export const POST = route(
  { auth: importChatflows, body: { json: flowiseImportSchema, maxBytes: FLOWISE_IMPORT_MAX_BYTES } },
  async ({ body, caller }) => {
    if (body.flowData !== undefined) assertJsonDepth(body.flowData, "body.flowData");
    const input = readFlowiseImport(body);
    assertNoNul(input.flow, "body.flowData");
    return json(await importFlowiseChatflow(input, caller), 201);
  },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");

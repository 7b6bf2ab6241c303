import { route } from "@/lib/http/route";
import { nodeDefinitions } from "@/lib/nodes/registry";
import { readNodes } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { nodeDefinitionResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

/** The node registry for the studio: palette, forms, handles and connection checks. */
export const GET = route(
  {
    auth: readNodes,
    docs: {
      tag: "Chatflows",
      summary: "The node registry (palette, forms, handles)",
      description:
        "Every node type the server can run: its inputs (params and connections), outputs, category and description.",
      responses: { 200: { description: "Node definitions", schema: z.array(nodeDefinitionResponseSchema) } },
    },
  },
  async () => nodeDefinitions,
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");

import { route } from "@/lib/http/route";
import { nodeDefinitions } from "@/lib/nodes/registry";
import { refuseOtherMethods } from "@/lib/http/methods";

/** The node registry for the studio: palette, forms, handles and connection checks. */
export const GET = route({ auth: { session: true, basicAdmin: true, apiKey: "chatflows" } }, async () => nodeDefinitions);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");

import { route } from "@/lib/http/route";
import { nodeDefinitions } from "@/lib/nodes/registry";

/** The node registry for the studio: palette, forms, handles and connection checks. */
export const GET = route({ auth: { session: true, basicAdmin: true, apiKey: "chatflows" } }, async () => nodeDefinitions);

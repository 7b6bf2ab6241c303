import { route } from "@/lib/http/route";
import { nodeDefinitions } from "@/lib/nodes/registry";
import { readNodes } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";

/** The node registry for the studio: palette, forms, handles and connection checks. */
export const GET = route({ auth: readNodes }, async () => nodeDefinitions);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");

import { json } from "@/lib/http/responses";
import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { nextPageHeaders, PAGE_HEADER_DOCS } from "@/lib/http/pagination";
import { z } from "zod";
import { idParams, route } from "@/lib/http/route";
import { readChatflowVersions } from "@/common/access/permissions";
import { listVersions } from "@/lib/services/chatflow-versions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { versionListResponseSchema } from "@/common/schemas/chatflow-version";

/** The chatflow's versions, newest first: `{version, publishedVersion, versions: [...]}`. */
export const GET = route(
  {
    auth: readChatflowVersions,
    params: idParams,
    query: z.object(pageParams("versions")),
    docs: {
      tag: "Versions",
      summary: "List a chatflow's versions, newest first",
      description:
        "Every save of the graph or run settings (override allow-list, chatbot config, speech-to-text) is a version. `published` marks the one the API runs, `draft` the latest.",
      responses: { 200: { description: "The versions", schema: versionListResponseSchema, headers: PAGE_HEADER_DOCS } },
    },
  },
  async ({ req, params, caller, query }) => {
    const list = await listVersions(params.id, caller, pageOfQuery(query));
    return json(list, 200, nextPageHeaders(req, list.nextCursor));
  },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");

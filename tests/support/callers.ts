import type { Caller } from "../../lib/http/callers";

/** A caller allowed everywhere, for setting up fixtures through the services. */
export const systemCaller: Caller = {
  kind: "apiKey",
  key: { id: "fixture", prefix: "sy_fixture", permissions: ["chatflows", "predict", "upsert", "messages", "domains"], allChatflows: true, chatflowIds: [] },
};

import { defineMapping, param } from "../rules";
import { jsonList, optionOf, stepText } from "../step-rules";

/** Flowise "HTTP" (agentflow) → our HTTP step (its credential left to connect: request headers here). */
export const httpAgentflow = defineMapping({
  flowise: "httpAgentflow",
  type: "httpAgentflow",
  step: {},
  richText: true,
  credential: "credential",
  inputs: {
    method: param("method", optionOf("GET", "POST", "PUT", "DELETE", "PATCH")),
    url: param("url", stepText),
    headers: param("headers", jsonList),
    queryParams: param("queryParams", jsonList),
    bodyType: param("bodyType", optionOf("json", "raw", "xWwwFormUrlencoded")),
    body: param("body", (value) => (typeof value === "string" ? { value } : { value: JSON.stringify(value) })),
    responseType: param("responseType", optionOf("json", "text")),
    httpUpdateState: param("httpUpdateState", jsonList),
  },
});

import { defineMapping, param, toHttpUrl, toInteger, toJson, toText } from "../rules";
import { inlineHeaders, inputSchema, toToolName } from "./requestsGet";

/** Flowise "Requests Post" (v2 `requestsPost*` inputs, v1 plain names) → our Requests Post tool. */
export const requestsPost = defineMapping({
  flowise: "requestsPost",
  type: "requestsPost",
  inputs: {
    requestsPostUrl: param("url", toHttpUrl),
    url: param("url", toHttpUrl),
    requestsPostName: param("name", toToolName),
    name: param("name", toToolName),
    requestsPostDescription: param("description", toText),
    description: param("description", toText),
    requestsPostBody: param("body", toJson),
    body: param("body", toJson),
    requestsPostMaxOutputLength: param("maxOutputLength", toInteger),
    requestsPostHeaders: inlineHeaders,
    headers: inlineHeaders,
    requestsPostBodySchema: inputSchema("body"),
    bodySchema: inputSchema("body"),
  },
});

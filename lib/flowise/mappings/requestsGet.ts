import { defineMapping, ignore, param, toHttpUrl, toInteger, toText } from "../rules";
import type { Convert } from "../types";

/** Flowise makes tool names lower case, spaces to "_", other characters dropped; so do we. */
export const toToolName: Convert = (value) => {
  if (typeof value !== "string") return { drop: "is not text" };
  const name = value
    .trim()
    .toLowerCase()
    .replace(/ /g, "_")
    .replace(/[^a-z0-9_-]/g, "")
    .slice(0, 64);
  return name
    ? { value: name }
    : { skip: true, warning: "the tool name had no usable characters: the default is used" };
};

/** Flowise's inline headers: they can only go into a Request headers credential, which the import cannot create. */
export const inlineHeaders = ignore(
  "inline headers cannot be imported: create a Request headers credential (allowed for the URL's host) and choose it on the node",
  () => false,
);

/** Flowise's parameter/body schema only describes the input to the model. */
export const inputSchema = (what: string) =>
  ignore(
    `the ${what} schema has no equivalent`,
    undefined,
    `the ${what} schema is not carried over: describe the expected ${what} in the tool's description`,
  );

/** Flowise "Requests Get" (v2 `requestsGet*` inputs, v1 plain names) → our Requests Get tool. */
export const requestsGet = defineMapping({
  flowise: "requestsGet",
  type: "requestsGet",
  inputs: {
    requestsGetUrl: param("url", toHttpUrl),
    url: param("url", toHttpUrl),
    requestsGetName: param("name", toToolName),
    name: param("name", toToolName),
    requestsGetDescription: param("description", toText),
    description: param("description", toText),
    requestsGetMaxOutputLength: param("maxOutputLength", toInteger),
    requestsGetHeaders: inlineHeaders,
    headers: inlineHeaders,
    requestsGetQueryParamsSchema: inputSchema("query parameters"),
    queryParamsSchema: inputSchema("query parameters"),
  },
});

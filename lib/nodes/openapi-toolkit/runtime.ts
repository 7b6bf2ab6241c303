import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { RuntimeOf } from "../define";
import { validateOperationArgs } from "../openapi-chain/args";
import { callOperation, truncateForModel } from "../openapi-chain/call";
import { headersFor, pinnedRequest, resolveServerUrl, specText } from "../openapi-chain/runtime";
import { parseOpenApiSpec, toToolDefinition } from "../openapi-chain/spec";
import type { openApiToolkitDefinition } from "./definition";

/**
 * One tool per operation of the spec (Flowise's OpenAPI Toolkit), built from the OpenAPI chain's
 * parts: the same spec loading and server rules, the arguments checked against the spec before a
 * request, the request built only from the server URL and the operation's path and method, sent
 * through the guard pinned to that server and the spec's methods. A refused or failing call throws:
 * the agent reads it as "Tool error: …" and goes on. The node builds a list of tools; a list anchor
 * (an agent's Tools) receives each of them.
 */
export const buildOpenApiToolkit: RuntimeOf<typeof openApiToolkitDefinition> = async (args) => {
  const { params, ctx, label } = args;
  const source = await specText(args);
  const spec = parseOpenApiSpec(source.text, label);
  const serverUrl = resolveServerUrl(spec.serverUrl, params.serverUrl, source, label);
  const headers = await headersFor(args, serverUrl);
  const send = pinnedRequest(ctx, serverUrl, [...new Set(spec.operations.map((o) => o.method))]);
  const timeoutMs = params.timeoutSeconds * 1000;
  return spec.operations.map((op): StructuredToolInterface => {
    const definition = toToolDefinition(op).function;
    return tool(
      async (raw: unknown, config) => {
        const opArgs = validateOperationArgs(op, raw);
        const body = await callOperation({
          send,
          serverUrl,
          apiTitle: spec.title,
          op,
          args: opArgs,
          headers,
          timeoutMs,
          signal: config?.signal,
        });
        return truncateForModel(body);
      },
      {
        name: definition.name,
        description: definition.description,
        schema: definition.parameters as JSONSchema,
        returnDirect: params.returnDirect,
        // The model is told what in its arguments broke the spec, so it can correct them.
        verboseParsingErrors: true,
      },
    ) as StructuredToolInterface;
  });
};

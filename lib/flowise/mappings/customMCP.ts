import type { Convert } from "../types";
import { defineMapping, param, toHttpUrl, toJson } from "../rules";

/**
 * Flowise's MCP server config (JSON: `url` and `headers` for a remote server, `command` and `args`
 * for a local one) → our MCP Tools node's server URL. A local (stdio) server would run a command on
 * this machine: refused. Headers need a Request headers credential, which the import cannot make;
 * Flowise variables have no equivalent here.
 */
const serverUrl: Convert = (value, ctx) => {
  let config: unknown = value;
  if (typeof value === "string") {
    if (/\{\{\s*\$vars\./.test(value)) return { drop: "uses {{$vars…}}, Flowise variables we have no equivalent of" };
    try {
      config = JSON.parse(value);
    } catch {
      return { drop: "is not JSON" };
    }
  }
  if (!config || typeof config !== "object") return { drop: "is not a server config" };
  const c = config as { url?: unknown; command?: unknown; headers?: unknown };
  if (c.command !== undefined)
    return {
      drop: "names a local command (a stdio MCP server): commands are never run; use a remote MCP server's URL",
    };
  if (c.headers && typeof c.headers === "object" && Object.keys(c.headers).length > 0)
    return { drop: "holds headers: put them in a Request headers credential and choose it on the MCP Tools node" };
  return toHttpUrl(c.url, ctx);
};

/** Flowise "Custom MCP" (a remote server's tools; transport Streamable HTTP, else SSE) → our MCP Tools. */
export const customMCP = defineMapping({
  flowise: "customMCP",
  type: "mcpTools",
  inputs: {
    mcpServerConfig: param("serverUrl", serverUrl),
    mcpActions: param("tools", toJson),
  },
  outputs: { customMCP: "toolkit" },
});

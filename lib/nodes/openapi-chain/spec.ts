import { parse as parseYaml } from "yaml";
import { AppError } from "@/common/errors";

/**
 * Parses an OpenAPI 3.0 document into the operations the chain may call. Only local `$ref`s are
 * followed. Each operation becomes one function-calling tool whose JSON-schema parameters are the
 * operation's path and query parameters (and its JSON request body, when it has one).
 */

export type JsonSchema = Record<string, unknown>;

export interface OperationParam {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface Operation {
  /** Tool name given to the model (the operationId, sanitised). */
  toolName: string;
  operationId: string;
  method: string;
  path: string;
  description: string;
  params: OperationParam[];
  body?: { required: boolean; schema: JsonSchema };
}

export interface ParsedSpec {
  title: string;
  /** The first server's URL (variables replaced by their defaults), or undefined. */
  serverUrl?: string;
  operations: Operation[];
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses spec text (YAML or JSON) into operations; invalid specs are an invalid_graph error. */
export function parseOpenApiSpec(text: string, where: string): ParsedSpec {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new AppError(
      "invalid_graph",
      `${where}: the OpenAPI spec is neither valid YAML nor JSON: ${(e as Error).message}`,
    );
  }
  if (!isObj(doc) || typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.")) {
    throw new AppError("invalid_graph", `${where}: not an OpenAPI 3.x document (the "openapi" field must be 3.x).`);
  }
  const title = isObj(doc.info) && typeof doc.info.title === "string" ? doc.info.title : "API";
  const operations = collectOperations(doc);
  if (operations.length === 0)
    throw new AppError("invalid_graph", `${where}: the OpenAPI spec "${title}" has no operations.`);
  return { title, serverUrl: firstServerUrl(doc), operations };
}

function firstServerUrl(doc: Obj): string | undefined {
  const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (!isObj(server) || typeof server.url !== "string") return undefined;
  const vars = isObj(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (m, name: string) => {
    const v = vars[name];
    return isObj(v) && v.default !== undefined ? String(v.default) : m;
  });
}

function collectOperations(doc: Obj): Operation[] {
  const paths = isObj(doc.paths) ? doc.paths : {};
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (isObj(op)) ops.push(toOperation(doc, path, method, op, shared));
    }
  }
  return ops;
}

function toOperation(doc: Obj, path: string, method: string, op: Obj, shared: unknown[]): Operation {
  const operationId = typeof op.operationId === "string" ? op.operationId : `${method}_${path}`;
  const byKey = new Map<string, OperationParam>();
  for (const raw of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const p = deref(doc, raw);
    if (!isObj(p) || typeof p.name !== "string" || (p.in !== "query" && p.in !== "path")) continue;
    byKey.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in,
      required: p.in === "path" || p.required === true,
      schema: isObj(p.schema) ? (resolveSchema(doc, p.schema) as JsonSchema) : { type: "string" },
      description: typeof p.description === "string" ? p.description : undefined,
    });
  }
  const description = [op.summary, op.description].filter((s) => typeof s === "string" && s).join(". ");
  return {
    toolName: operationId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
    operationId,
    method: method.toUpperCase(),
    path,
    description: description || `${method.toUpperCase()} ${path}`,
    params: [...byKey.values()],
    body: jsonBody(doc, op),
  };
}

function jsonBody(doc: Obj, op: Obj): Operation["body"] {
  const body = deref(doc, op.requestBody);
  if (!isObj(body) || !isObj(body.content)) return undefined;
  const media = body.content["application/json"];
  if (!isObj(media) || !isObj(media.schema)) return undefined;
  return { required: body.required === true, schema: resolveSchema(doc, media.schema) as JsonSchema };
}

/** Follows one local `$ref` ("#/a/b"). */
function deref(doc: Obj, value: unknown): unknown {
  if (!isObj(value) || typeof value.$ref !== "string") return value;
  if (!value.$ref.startsWith("#/")) return {};
  let cur: unknown = doc;
  for (const part of value.$ref.slice(2).split("/")) {
    cur = isObj(cur) ? cur[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  return cur ?? {};
}

/** Inlines local `$ref`s of a schema (depth-limited, so recursive schemas end as {}). */
function resolveSchema(doc: Obj, schema: unknown, depth = 0): unknown {
  if (depth > 8) return {};
  const s = deref(doc, schema);
  if (Array.isArray(s)) return s.map((x) => resolveSchema(doc, x, depth + 1));
  if (!isObj(s)) return s;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "example" || k === "examples" || k === "xml") continue;
    out[k] = typeof v === "object" && v !== null ? resolveSchema(doc, v, depth + 1) : v;
  }
  return out;
}

/** The OpenAI-style function tool the model sees for one operation. */
export function toToolDefinition(op: Operation) {
  const properties: Obj = {};
  const required: string[] = [];
  for (const p of op.params) {
    properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
    if (p.required) required.push(p.name);
  }
  if (op.body) {
    properties.requestBody = op.body.schema;
    if (op.body.required) required.push("requestBody");
  }
  return {
    type: "function" as const,
    function: {
      name: op.toolName,
      description: op.description.slice(0, 1000),
      parameters: { type: "object", properties, required },
    },
  };
}

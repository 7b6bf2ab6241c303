import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { generateSync, type JsonSchema } from "json-schema-faker";

// Requests made from an OpenAPI document's own schemas (json-schema-faker, seeded), and answers
// checked against it (Ajv, draft 2020-12 as OpenAPI 3.1 uses): the contract fuzz of
// tests/integration/openapi-fuzz.test.ts.

type Schema = Record<string, unknown>;
type Parameter = { in: "path" | "query" | "header" | "cookie"; name: string; required?: boolean; schema?: Schema };
type MediaTypes = Record<string, { schema?: Schema }>;
/** The parts of an OpenAPI operation object the fuzz reads. */
export type DocumentedOperation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: MediaTypes };
  responses: Record<string, { content?: MediaTypes }>;
};
export type Document = { paths: Record<string, Record<string, DocumentedOperation>>; components?: Schema };

/** A request made from an operation's schemas: path params, query, headers and JSON body as generated. */
export type FuzzRequest = {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
};

/**
 * Parameters no schema can draw a valid value of: a page `cursor` is an opaque token only the
 * server issues (any other value is rightly 400). They are left out of drawn requests.
 */
const SERVER_ISSUED = new Set(["query cursor"]);

/** Draws requests and checks answers for one document. */
export function documentFuzzer(doc: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The formats our zod schemas emit (Ajv ships none; ajv-formats is not installed).
  ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s));
  ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat("email", /^[^\s@]+@[^\s@]+$/);
  ajv.addFormat("uri", (s: string) => URL.canParse(s));
  ajv.addFormat("binary", () => true);
  const validators = new Map<Schema, ValidateFunction>();
  const withComponents = (schema: Schema) => ({ ...schema, components: doc.components });
  const validatorOf = (schema: Schema) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(withComponents(schema));
      validators.set(schema, validate);
    }
    return validate;
  };
  const draw = (schema: Schema, seed: number) =>
    generateSync(withComponents(schema) as JsonSchema, {
      seed,
      optionalsProbability: 0.5,
      maxItems: 3,
      maxLength: 60,
      maxDepth: 4,
    });

  return {
    /**
     * A schema-valid request for the operation, drawn with `random` (optional query parameters are
     * sent half the time), or null with why when the generator's draw does not validate.
     */
    request(op: DocumentedOperation, random: () => number): { request: FuzzRequest | null; rejected?: string } {
      const params: Record<string, string> = {};
      const query: Record<string, string> = {};
      const headers: Record<string, string> = {};
      const seed = () => Math.floor(random() * 2 ** 31);
      for (const p of op.parameters ?? []) {
        if (SERVER_ISSUED.has(`${p.in} ${p.name}`)) continue;
        if (!p.schema || (p.in !== "path" && !p.required && random() < 0.5)) continue;
        const value = draw(p.schema, seed());
        if (!validatorOf(p.schema)(value))
          return { request: null, rejected: `${p.in} ${p.name}: ${JSON.stringify(value)}` };
        if (p.in === "cookie") continue;
        (p.in === "path" ? params : p.in === "header" ? headers : query)[p.name] = String(value);
      }
      const schema = op.requestBody?.content["application/json"]?.schema;
      if (!schema) return { request: { params, query, headers } };
      const body = draw(schema, seed());
      const validate = validatorOf(schema);
      if (!validate(body)) return { request: null, rejected: `body: ${ajv.errorsText(validate.errors)}` };
      return { request: { params, query, headers, body } };
    },

    /** What is wrong with an answer, by the document: an undocumented status, or JSON off its schema. */
    problemsOf(op: DocumentedOperation, status: number, contentType: string, text: string): string[] {
      const response = op.responses[String(status)];
      if (!response) return [`status ${status} is not documented`];
      if (!contentType.startsWith("application/json")) {
        return response.content && !Object.keys(response.content).some((m) => mediaMatches(m, contentType))
          ? [`${contentType} is not a documented answer of ${status}`]
          : [];
      }
      const schema = response.content?.["application/json"]?.schema;
      if (!schema) return [`a JSON answer where ${status} documents none`];
      const validate = validatorOf(schema);
      return validate(JSON.parse(text)) ? [] : [`answer off its schema: ${ajv.errorsText(validate.errors)}`];
    },

    /** Each `data:` event of a streamed answer that does not match the documented event schema. */
    eventProblems(op: DocumentedOperation, status: number, text: string): string[] {
      const schema = op.responses[String(status)]?.content?.["text/event-stream"]?.schema;
      if (!schema) return [`an event stream where ${status} documents none`];
      const validate = validatorOf(schema);
      return text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => JSON.parse(line.slice(5)))
        .filter((event) => !validate(event))
        .map(
          (event) => `event off its schema: ${JSON.stringify(event).slice(0, 200)} ${ajv.errorsText(validate.errors)}`,
        );
    },
  };
}

/** `image/*` matches `image/png`; parameters (`; charset=…`) are ignored. */
function mediaMatches(documented: string, actual: string): boolean {
  const type = actual.split(";")[0].trim();
  return documented.endsWith("/*") ? type.startsWith(documented.slice(0, -1)) : type === documented;
}

/** A small seeded generator of numbers in [0, 1) (mulberry32): the same seed draws the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

import { dataUrlText, defineMapping, ignore, param, toBoolean } from "../rules";

/** Flowise's default custom code for the toolkit: fetch the URL with the options, answer the JSON. */
const DEFAULT_CODE = [
  "const fetch = require('node-fetch');",
  "const url = $url;",
  "const options = $options;",
  "try {",
  "const response = await fetch(url, options);",
  "const resp = await response.json();",
  "return JSON.stringify(resp);",
  "} catch (error) {",
  "console.error(error);",
  "return '';",
  "}",
].join("");

const squashed = (code: string) => code.replace(/\s+/g, "");

/** Flowise's default custom code is what our toolkit does itself (through the outbound guard); other code is not run. */
const defaultCodeOnly = (value: unknown) => typeof value === "string" && squashed(value) === squashed(DEFAULT_CODE);

/**
 * Flowise "OpenAPI Toolkit" → our OpenAPI Toolkit: the uploaded YAML becomes the spec text. Flowise
 * sends each request through editable JavaScript; its default (fetch and answer the JSON) is what
 * our toolkit does through the outbound guard, and any other code is refused (never run). Null
 * arguments are always left out here. Flowise's `headers` (JSON) need a Request headers credential,
 * which the import cannot create: refused, so the builder makes one.
 */
export const openAPIToolkit = defineMapping({
  flowise: "openAPIToolkit",
  type: "openApiToolkit",
  inputs: {
    yamlFile: param("spec", dataUrlText),
    returnDirect: param("returnDirect", toBoolean),
    removeNulls: ignore("arguments the model leaves null are always left out of the request"),
    customCode: ignore(
      "custom request code is JavaScript this import never runs; the toolkit sends each request itself, through the outbound guard",
      defaultCodeOnly,
    ),
  },
  outputs: { openAPIToolkit: "tools" },
});

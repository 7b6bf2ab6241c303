import { anchor, dataUrlText, defineMapping, param, toHttpUrl } from "../rules";

/**
 * Flowise "OpenAPI Chain" → our OpenAPI Chain. An uploaded YAML (a data: URL in the export) becomes
 * the spec text; a YAML link our spec URL. Flowise's `headers` (JSON) have no place to go but a
 * Request headers credential, which the import cannot create: refused, so the builder makes one.
 */
export const openApiChain = defineMapping({
  flowise: "openApiChain",
  type: "openApiChain",
  inputs: {
    model: anchor("model"),
    yamlLink: param("specUrl", toHttpUrl),
    yamlFile: param("spec", dataUrlText),
  },
});

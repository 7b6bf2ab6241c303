import { route } from "@/lib/http/route";
import { manageModelPrices, readUsagePolicy } from "@/common/access/permissions";
import { modelPricesResponseSchema, putModelPricesSchema } from "@/common/schemas/usage";
import { getModelPrices, setModelPrices } from "@/lib/services/usage";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route(
  {
    auth: readUsagePolicy,
    docs: {
      tag: "Usage",
      summary: "Model prices",
      description:
        "The price table answers are costed with, USD per million prompt and completion tokens: built-in defaults (`source: default`, taken from the providers' pages as of `defaultsAsOf`) under the prices admins set (`source: admin`). A model name matches exactly or as the start of a longer name before a dash (`gpt-4o` prices `gpt-4o-2024-08-06`); a model matching none has no cost (null, not 0).",
      responses: { 200: { description: "The prices in force", schema: modelPricesResponseSchema } },
    },
  },
  async () => getModelPrices(),
);

export const PUT = route(
  {
    auth: manageModelPrices,
    body: { json: putModelPricesSchema },
    docs: {
      tag: "Usage",
      summary: "Set model prices",
      description:
        "Replaces the admins' prices with `prices` (a default not listed stays in force; an admin price of a default's name replaces it). Answers already stored keep the cost computed when they were stored.",
      responses: { 200: { description: "The prices in force", schema: modelPricesResponseSchema } },
    },
  },
  async ({ body }) => setModelPrices(body.prices),
);

export const { POST, PATCH, DELETE } = refuseOtherMethods("GET", "PUT");

import { z } from "zod";
import { AZURE_DEFAULT_API_VERSION, type ProviderKindId } from "@/common/providers/catalogue";

/** "host" or "host:port" (IPv6 in brackets), lower case: where a credential may be sent. */
export const hostEntrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/,
    "must be host or host:port, e.g. api.example.com or 10.0.0.5:8080",
  );

/**
 * What an HTTP header value can carry: printable ASCII, spaces and tabs. A line break or a
 * non-Latin character made every run using the credential fail inside fetch with a 500.
 */
export const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const headerValue = (max: number) =>
  z.string().max(max).regex(HEADER_VALUE, "must be printable ASCII without line breaks (it is sent in an HTTP header)");

const providerUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/**
 * Credential kinds and the fields each holds. Values are encrypted at rest and never sent back.
 * Each kind records where it may be sent (lib/security/credential-hosts.ts): a provider key only to
 * its baseURL's host (or the provider's own host when none), request headers only to allowedHosts.
 */
const providerKey = z.object({ apiKey: headerValue(500).min(1), baseURL: providerUrl.optional() }).strict();

/** A provider's key: where PROVIDER_KINDS gives the provider's own URL the base URL is optional. */
const providerSchemas = {
  openai: providerKey,
  anthropic: providerKey,
  googleGenerativeAI: providerKey,
  mistralAI: providerKey,
  groq: providerKey,
  deepseek: providerKey,
  openRouter: providerKey,
  togetherAI: providerKey,
  azureOpenAI: z
    .object({
      apiKey: headerValue(500).min(1),
      baseURL: providerUrl.meta({ description: "The resource's endpoint, e.g. https://my-resource.openai.azure.com" }),
      apiVersion: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, "must be an Azure OpenAI API version such as 2024-10-21")
        .default(AZURE_DEFAULT_API_VERSION),
    })
    .strict(),
  awsBedrock: z
    .object({
      apiKey: headerValue(500).min(1).meta({ description: "The IAM secret access key" }),
      accessKeyId: z.string().regex(/^[A-Z0-9]{16,128}$/, "must be an AWS access key ID such as AKIAIOSFODNN7EXAMPLE"),
      region: z
        .string()
        .trim()
        .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, "must be an AWS region such as us-east-1")
        .meta({
          description: "Where the models run: the credential is sent to bedrock-runtime.<region>.amazonaws.com",
        }),
      sessionToken: headerValue(4000).min(1).optional(),
      baseURL: providerUrl.optional(),
    })
    .strict(),
  replicate: providerKey,
  huggingFace: providerKey,
  serpApi: providerKey,
  serper: providerKey,
  googleCustomSearch: z
    .object({
      apiKey: headerValue(500).min(1),
      baseURL: providerUrl.optional(),
      searchEngineId: z
        .string()
        .regex(/^[A-Za-z0-9:_-]{1,100}$/, "must be a Programmable Search Engine id (cx)")
        .meta({ description: "The cx of the Programmable Search Engine to query" }),
    })
    .strict(),
  tavily: providerKey,
  braveSearch: providerKey,
  pinecone: providerKey,
  qdrant: z
    .object({
      apiKey: headerValue(500).min(1),
      baseURL: providerUrl.meta({ description: "The Qdrant server's REST URL, e.g. http://qdrant.internal:6333" }),
    })
    .strict(),
  chroma: z
    .object({
      apiKey: headerValue(500).min(1),
      baseURL: providerUrl.optional(),
      tenant: z.string().trim().min(1).max(255).optional(),
      database: z.string().trim().min(1).max(255).optional(),
    })
    .strict(),
  elasticsearch: z
    .object({
      apiKey: headerValue(500).min(1),
      baseURL: providerUrl.meta({
        description: "The cluster's URL, e.g. https://my-deployment.es.us-east-1.aws.elastic.cloud",
      }),
    })
    .strict(),
  github: providerKey,
} as const satisfies Record<ProviderKindId, z.ZodType>;

export const credentialDataSchemas = {
  ...providerSchemas,
  /**
   * A PostgreSQL, MySQL or MariaDB database the SQL Database Chain reads (host through the outbound
   * rules; best a read-only user). Port: 5432 or 3306 by dialect when not given.
   */
  sqlDatabase: z
    .object({
      dialect: z.enum(["postgres", "mysql"]).default("postgres"),
      host: z.string().trim().min(1).max(255),
      port: z.number().int().min(1).max(65535).optional(),
      database: z.string().min(1).max(100),
      user: z.string().min(1).max(100),
      password: z.string().max(500).optional(),
      ssl: z.boolean().optional(),
    })
    .strict(),
  httpHeaders: z
    .object({
      allowedHosts: z.array(hostEntrySchema).min(1, "list at least one host the headers may be sent to").max(20),
      headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "must be a header name"), headerValue(4000)),
    })
    .strict(),
} as const;

export const CREDENTIAL_TYPES = Object.keys(credentialDataSchemas) as (keyof typeof credentialDataSchemas)[];
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** The JSON schema of each kind's `data`, for the OpenAPI document (the service checks `data` against its kind). */
const dataJsonSchemas: Record<string, Record<string, unknown>> = Object.fromEntries(
  CREDENTIAL_TYPES.map((type) => {
    const { $schema: _, ...schema } = z.toJSONSchema(credentialDataSchemas[type], { io: "input" }) as Record<
      string,
      unknown
    >;
    return [type, schema];
  }),
);

export const createCredentialSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    type: z.enum(CREDENTIAL_TYPES as [CredentialType, ...CredentialType[]]),
    data: z.record(z.string(), z.unknown()),
  })
  .strict()
  .meta({
    override: {
      // One per kind (`type` tells them apart): the data fields that kind holds.
      anyOf: CREDENTIAL_TYPES.map((type) => ({ properties: { type: { const: type }, data: dataJsonSchemas[type] } })),
    },
  });

/** PUT /api/v1/credentials/{id}: `sharedWithBuilders` and `ownerId` are for admins only (403 otherwise). */
export const updateCredentialSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description: "New values, replacing the old: the fields of the credential's own type",
        // Kinds whose fields are alike (openai, anthropic) are shown once.
        override: {
          anyOf: [...new Set(Object.values(dataJsonSchemas).map((s) => JSON.stringify(s)))].map((s) => JSON.parse(s)),
        },
      }),
    sharedWithBuilders: z.boolean().optional(),
    ownerId: z.uuid({ error: "must be a user UUID" }).optional(),
  })
  .strict();

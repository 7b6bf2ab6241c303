import { Readable } from "node:stream";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import type { HttpHandlerOptions, HttpRequest, HttpResponse, RequestHandler } from "@smithy/types";
import { AppError } from "@/common/errors";
import { credentialText, providerDefaultUrl, type ResolvedCredential } from "../../security/credential-hosts";

/**
 * Sends the AWS SDK's signed requests through a fetch we choose (the guarded model fetch, or the
 * credential test's guarded fetch) instead of the SDK's own HTTP/2 client: the outbound policy, the
 * credential's host and the deadline apply to Bedrock as to every provider. The `host` header is
 * left to fetch, which sends the URL's (the one the SDK signed).
 */
class FetchHandler implements RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions> {
  constructor(private readonly send: typeof fetch) {}

  async handle(request: HttpRequest, options?: HttpHandlerOptions): Promise<{ response: HttpResponse }> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(request.query ?? {}))
      for (const value of Array.isArray(v) ? v : [v]) if (value != null) query.append(k, value);
    const qs = query.toString();
    const port = request.port ? `:${request.port}` : "";
    const url = `${request.protocol}//${request.hostname}${port}${request.path}${qs ? `?${qs}` : ""}`;
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([k]) => k.toLowerCase() !== "host"));
    const res = await this.send(url, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : (request.body as BodyInit),
      signal: options?.abortSignal as AbortSignal | undefined,
    });
    const body = res.body ? Readable.fromWeb(res.body as import("node:stream/web").ReadableStream) : Readable.from([]);
    return {
      response: {
        statusCode: res.status,
        reason: res.statusText,
        headers: Object.fromEntries(res.headers.entries()),
        body,
      },
    };
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs() {
    return {};
  }
}

/** Where a Bedrock credential sends its calls: its base URL, else bedrock-runtime.<region>.amazonaws.com. */
export function bedrockEndpoint(cred: ResolvedCredential): string {
  return credentialText(cred, "baseURL") || providerDefaultUrl(cred);
}

/**
 * A Bedrock Runtime client for an "awsBedrock" credential (access key id, secret as apiKey, region,
 * optional session token): SigV4 only (a bearer token in the server's environment is never used),
 * the credential's keys only (never the server's AWS profile or instance role), one attempt (retries
 * are the run's business), through `send`.
 */
export function createBedrockClient(cred: ResolvedCredential, send: typeof fetch, requester: string) {
  const accessKeyId = credentialText(cred, "accessKeyId");
  const secretAccessKey = credentialText(cred, "apiKey");
  const region = credentialText(cred, "region");
  if (!accessKeyId || !secretAccessKey || !region)
    throw new AppError(
      "not_configured",
      `${requester}: credential "${cred.name}" needs an access key ID, a secret access key and a region.`,
    );
  const sessionToken = credentialText(cred, "sessionToken");
  return new BedrockRuntimeClient({
    region,
    endpoint: bedrockEndpoint(cred),
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
    authSchemePreference: ["sigv4"],
    maxAttempts: 1,
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    requestHandler: new FetchHandler(send),
  });
}

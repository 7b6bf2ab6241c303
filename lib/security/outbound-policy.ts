/**
 * The operator's outbound policy, read from the settings: which private hosts flows may reach and
 * how long a model may take. Private, loopback and link-local addresses are reachable only when the
 * operator allows them (OUTBOUND_ALLOW_HOSTS, the hosts of the server's own *_BASE_URL settings,
 * or OUTBOUND_ALLOW_PRIVATE=true); never because a builder, a caller or a fetched document named
 * them.
 */
import { describeModelFailure, type ModelCaller, modelStatusFailure } from "./model-failure";
import { getEnv } from "../env";
import {
  checkOutboundHost,
  createGuardedFetch,
  createGuardedRequest,
  type GuardedFetchOptions,
  type GuardedRequest,
} from "./outbound";

/** The host of the server's own base URL (its model server may be private), or none when unset or invalid. */
function hostOfSetting(url: string | undefined): string[] {
  if (!url) return [];
  try {
    return [new URL(url).host.toLowerCase()];
  } catch {
    return [];
  }
}

type OperatorPolicy = Pick<GuardedFetchOptions, "allowPrivate" | "allowPrivateHosts">;
let memo: { env: ReturnType<typeof getEnv>; policy: OperatorPolicy } | undefined;

/**
 * Private-address allowance of every outbound request, from the settings: worked out once per
 * parsed environment (getEnv caches it), not on every flow build and speech request.
 */
export function operatorPolicy(): OperatorPolicy {
  const env = getEnv();
  if (memo?.env === env) return memo.policy;
  const policy = {
    allowPrivate: env.OUTBOUND_ALLOW_PRIVATE === "true",
    allowPrivateHosts: [...new Set([...env.OUTBOUND_ALLOW_HOSTS, ...hostOfSetting(env.OPENAI_BASE_URL)])],
  };
  memo = { env, policy };
  return policy;
}

/**
 * The operator's rules for a connection that is not HTTP (a SQL node's database): a private host
 * only where OUTBOUND_ALLOW_HOSTS (or OUTBOUND_ALLOW_PRIVATE) allows it. Returns the checked address.
 */
export function checkOperatorHost(host: string, port: number): Promise<{ address: string; family: number }> {
  return checkOutboundHost(host, port, operatorPolicy());
}

/**
 * A guarded fetch under the operator's rules for a node client that needs a streamed answer (an MCP
 * server's event stream): only `allowedHosts`, private addresses only where the operator allows,
 * the body handed over as it arrives within `timeoutMs`; failures are AppErrors naming `requester`.
 */
export function createOperatorFetch(opts: {
  allowedHosts: string[];
  timeoutMs: number;
  requester: string;
}): typeof fetch {
  return createGuardedFetch({ ...operatorPolicy(), ...opts, streamResponse: true }) as typeof fetch;
}

/** Who asks (starts every error), the only hosts it may reach, and why a key may have been refused. */
export interface ModelFetchOptions {
  requester: string;
  /** The node (and what it is) named in the sentence a failure reads as, and in `error.details`. */
  caller?: ModelCaller;
  allowedHosts?: string[];
  authHint?: string;
  /** A node's own deadline (ms): only ever shortens MODEL_TIMEOUT_MS, never extends it. */
  timeoutMs?: number;
}

/** Largest model answer (a big embeddings batch in base64 is a few MiB). */
const MODEL_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

function hostOfInput(input: RequestInfo | URL): string {
  try {
    return new URL(input instanceof Request ? input.url : String(input)).host;
  } catch {
    return String(input);
  }
}

/**
 * The fetch a model client (chat, embeddings, speech-to-text) sends through: the outbound guard,
 * bodies streamed as they arrive, MODEL_TIMEOUT_MS for the whole call, and failures (refused
 * connection, DNS, 5xx, refused key, deadline) thrown as AppErrors that name the node and the host.
 * `allowedHosts`, when given, are the only hosts the request may reach (a credential's binding);
 * `authHint` is added when the provider refuses the key (e.g. why no key was sent).
 */
export function createModelFetch(opts: ModelFetchOptions): typeof fetch {
  const { guardOptions, onFailure, statusFailure } = modelGuard(opts);
  const guarded = createGuardedFetch(guardOptions);
  const modelFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const host = hostOfInput(input);
    const res = await guarded(input, init).catch((err) => {
      throw onFailure(err, host);
    });
    const failure = statusFailure(
      new URL(res.url || `http://${host}`).host,
      res.status,
      res.headers.get("retry-after"),
    );
    if (!failure) return res;
    await res.body?.cancel().catch(() => undefined);
    throw failure;
  };
  return modelFetch as typeof fetch;
}

/**
 * The model fetch's guard and failures (createModelFetch) answering node's own response instead of a
 * Response: for the model client that calls it on every prediction (OpenAIChat).
 */
export function createModelRequest(opts: ModelFetchOptions): GuardedRequest {
  const { guardOptions, onFailure, statusFailure } = modelGuard(opts);
  const guarded = createGuardedRequest(guardOptions);
  return async (input, init) => {
    const host = hostOfInput(input);
    const answer = await guarded(input, init).catch((err) => {
      throw onFailure(err, host);
    });
    const retryAfter = answer.headers["retry-after"];
    const failure = statusFailure(
      answer.url.host,
      answer.status,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    );
    if (!failure) return answer;
    answer.discard();
    throw failure;
  };
}

/** What both model transports share: the guard's options and how failures are said. */
function modelGuard({ requester, caller = { kind: requester }, allowedHosts, authHint, timeoutMs }: ModelFetchOptions) {
  const operatorTimeout = getEnv().MODEL_TIMEOUT_MS;
  const deadline = timeoutMs ? Math.min(timeoutMs, operatorTimeout) : operatorTimeout;
  const guardOptions: GuardedFetchOptions = {
    ...operatorPolicy(),
    allowedHosts,
    requester,
    streamResponse: true,
    timeoutMs: deadline,
    maxResponseBytes: MODEL_MAX_RESPONSE_BYTES,
    untraced: true,
  };
  return {
    guardOptions,
    onFailure: (err: unknown, host: string) => describeModelFailure(err, caller, host, deadline),
    statusFailure: (host: string, status: number, retryAfter?: string | null) =>
      modelStatusFailure(caller, host, status, authHint, retryAfter),
  };
}

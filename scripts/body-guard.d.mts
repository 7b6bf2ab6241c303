/** Types of body-guard.mjs (plain ESM so scripts/start.mjs can run it under node). */
import type { IncomingMessage, ServerResponse } from "node:http";

export type BodyGuardSettings = {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  maxPendingAnonymousBodies: number;
};
export declare const BODY_GUARD_DEFAULTS: BodyGuardSettings;
export declare const NON_API_BODY_MAX_BYTES: number;
export declare function bodyGuardSettings(env: Record<string, string | undefined>): BodyGuardSettings;
export declare function serverTimeouts(settings: BodyGuardSettings): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
};
export declare function hasBody(req: IncomingMessage): boolean;
export declare function presentsCredentials(req: IncomingMessage): boolean;
export declare function closingAnswer(
  status: number,
  reason: string,
  code: string,
  message: string,
  extra?: Record<string, string>,
): string;
export type BodyWatch = {
  admit(req: IncomingMessage, res: ServerResponse, where: { api: boolean }): boolean;
  pending(): number;
};
export declare function watchBodies(settings: BodyGuardSettings): BodyWatch;

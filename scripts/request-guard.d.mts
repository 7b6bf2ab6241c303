/** Types of request-guard.mjs (plain ESM so scripts/start.mjs can run it under node). */
export declare const KNOWN_METHODS: string[];
export declare const MAX_TARGET_LENGTH: number;
export type Refusal = { status: number; headers: Record<string, string>; body: string };
export declare function checkRequest(method: string | undefined, target: string | undefined): Refusal | null;
export declare function rawRefusal(err: { code?: string } | null): string;
export declare function guardServer(server: import("node:http").Server): void;
export declare function createAppServer(
  handle: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown,
  fast?: ((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean) | null,
  options?: { bodies?: import("./body-guard.mjs").BodyGuardSettings },
): import("node:http").Server;

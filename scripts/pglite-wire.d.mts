import type { Server } from "node:net";
import type { PGlite } from "@electric-sql/pglite";

export const SOCKET_PORT: number;
export function servePGlite(db: PGlite, socketPath: string, options?: { onIdle?: () => void }): Server;
export function startEmbeddedDatabase(options: { dataDir: string | null; onLost?: (reason: string) => void }): Promise<{
  socketDir: string;
  close(): Promise<void>;
}>;
export function embeddedDataDir(url: string | undefined, dataDir?: string): string | null | undefined;
export function pgliteSettings(env?: Record<string, string | undefined>): string[];

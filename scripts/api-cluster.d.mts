/** Types of api-cluster.mjs (plain ESM so scripts/start.mjs can run it under node). */
export declare function clusterProblem(s: {
  processes: number;
  redisUrl?: string;
  embedded: boolean;
  thread: boolean;
}): string | null;
export declare function runPrimary(options: { processes: number; log?: (line: string) => void }): Promise<number>;
export declare const SHUTDOWN: string;

/**
 * The Queue page in a builder's words: what each queue holds and what each count means, so the
 * page reads without knowing BullMQ. The queue names are those of lib/queue/names.ts. Pure: no
 * React, no fetch.
 */

/** The counts a queue reports, in the order the page shows them. */
export const QUEUE_COUNTS = ["waiting", "active", "delayed", "failed", "completed"] as const;
export type QueueCount = (typeof QUEUE_COUNTS)[number];

/** Each count's plain name and what it means for a builder. */
export const COUNT_MEANINGS: Record<QueueCount, { label: string; meaning: string }> = {
  waiting: { label: "Waiting", meaning: "accepted, not started yet (all runners are busy)" },
  active: { label: "Running", meaning: "being worked on right now" },
  delayed: { label: "Delayed", meaning: "starts later: a retry after a failed try, or a planned start" },
  failed: { label: "Failed", meaning: "stopped after its last retry: the work was not done" },
  completed: { label: "Done", meaning: "finished (recent ones are counted)" },
};

const QUEUES: Record<string, { title: string; what: string }> = {
  predictions: {
    title: "Chat answers",
    what: "Questions sent to a chatflow, by the widget, the API or the test chat.",
  },
  upserts: { title: "Document uploads", what: "Documents loaded, split and stored in a vector store." },
  "domain-analyses": { title: "Domain analyses", what: "Sites crawled and analysed from the Domains page." },
  "chatflow-test-runs": { title: "Test runs", what: "Runs of a chatflow's test cases (the Tests tab)." },
  "flow-schedules": { title: "Scheduled runs", what: "Chatflows started by their schedule." },
};

/**
 * Embedded mode lists its in-process queues by job definition name (lib/queue/job-queue.ts maps
 * them to the queue names above in queue mode).
 */
const DEFINITION_QUEUES: Record<string, string> = {
  "domain-analysis": "domain-analyses",
  "chatflow-test-run": "chatflow-test-runs",
  "schedule-tick": "flow-schedules",
};

/** A queue's plain title and what it holds (by queue or job definition name); an unknown queue keeps its name. */
export function describeQueue(name: string): { title: string; what: string } {
  return QUEUES[DEFINITION_QUEUES[name] ?? name] ?? { title: name, what: "" };
}

/** One line for a queue's counts, e.g. "2 waiting · 1 running · 5 done" (zeros left out). */
export function countsLine(counts: Record<QueueCount, number>): string {
  const parts = QUEUE_COUNTS.filter((c) => counts[c] > 0).map(
    (c) => `${counts[c]} ${COUNT_MEANINGS[c].label.toLowerCase()}`,
  );
  return parts.length ? parts.join(" · ") : "nothing yet";
}

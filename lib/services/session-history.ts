import { LRUCache } from "lru-cache";
import { getEnv } from "../env";
import { parseDatabaseUrl } from "../db/connection";
import { exchangeTimes, insertExchange, findSessionHistory } from "../db/queries/chat-messages";
import { storableText } from "../db/storable-text";
import type { HistoryMessage } from "../flow";
import { on, processState, stateBus } from "../state";

/**
 * The stored history a memory node reads on every prediction, kept for the sessions this process
 * served lately, so the next turn of a chat reads no statement. Only where this process stores
 * every message there is: the embedded database (one process opens it) served by one API process,
 * outside queue mode (SESSION_HISTORY_CACHE_MB, 0: off). Elsewhere other processes store exchanges
 * this one would not see, and every read goes to the database.
 *
 * An entry holds the newest rows of a session, oldest first, exactly as the database read returns
 * them (createdAt order, a question before an answer of the same millisecond). A stored exchange is
 * appended only when it sorts after everything the entry holds (asked in a later millisecond than
 * the entry's newest row); any other (two turns of one session at once, a clock step back) drops
 * the entry and the next read goes to the database. A read that was on its way to the database
 * while an exchange of its session was stored, or messages deleted, is not kept. Deleting messages
 * (chatMessages.deleted) or the chatflow (chatflow.deleted) drops the chatflow's entries;
 * state.resync drops all.
 */

type Entry = {
  /** Oldest first. */
  rows: HistoryMessage[];
  /** True when `rows` is the session's whole history; else its newest `rows.length` rows. */
  complete: boolean;
  /** The newest row's createdAt (ms); -Infinity when there is none. */
  newestAt: number;
  /** The read's limit: appended exchanges keep at most this many rows. */
  cap: number;
};

/** A read on its way to the database; `stale` once its session changed meanwhile. */
type Reading = { stale: boolean };

const keyOf = (chatflowId: string, sessionId: string) => `${chatflowId}\u0000${sessionId}`;
/** Bytes an entry holds, roughly: UTF-16 text plus object overheads. */
const entryBytes = (e: Entry) => e.rows.reduce((n, r) => n + 2 * r.content.length + 64, 128);

export class SessionHistoryCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly reading = new Map<string, Set<Reading>>();
  hits = 0;
  misses = 0;

  /** `load` reads from the database (tests slow it down to interleave reads and writes). */
  constructor(
    maxBytes: number,
    private readonly load: typeof findSessionHistory = findSessionHistory,
  ) {
    this.entries = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: entryBytes });
  }

  /** The newest `limit` messages of the session, oldest first (as the database read gives them). */
  async read(chatflowId: string, sessionId: string, limit: number): Promise<HistoryMessage[]> {
    const key = keyOf(chatflowId, sessionId);
    const held = this.entries.get(key);
    if (held && (held.complete || limit <= held.rows.length)) {
      this.hits += 1;
      // Copies: what the caller does with its messages never reaches the cache.
      return held.rows.slice(Math.max(0, held.rows.length - limit)).map((m) => ({ ...m }));
    }
    this.misses += 1;
    const reading: Reading = { stale: false };
    const pending = this.reading.get(key) ?? new Set<Reading>();
    pending.add(reading);
    this.reading.set(key, pending);
    try {
      const { messages, newestAt } = await this.load({ chatflowId, sessionId, limit });
      if (!reading.stale)
        this.entries.set(key, {
          rows: messages.map((m) => ({ ...m })),
          complete: messages.length < limit,
          newestAt,
          cap: limit,
        });
      return messages;
    } finally {
      pending.delete(reading);
      if (pending.size === 0) this.reading.delete(key);
    }
  }

  /** An exchange was stored: its two rows as stored, at these times (ms, as stored). */
  stored(chatflowId: string, sessionId: string, rows: HistoryMessage[], askedAt: number, answeredAt: number): void {
    const key = keyOf(chatflowId, sessionId);
    for (const r of this.reading.get(key) ?? []) r.stale = true;
    const held = this.entries.get(key, { updateAgeOnGet: false });
    if (!held) return;
    if (!(held.newestAt < askedAt)) {
      this.entries.delete(key);
      return;
    }
    const all = [...held.rows, ...rows];
    const kept = all.length > held.cap ? all.slice(all.length - held.cap) : all;
    this.entries.set(key, { ...held, rows: kept, complete: held.complete && kept === all, newestAt: answeredAt });
  }

  dropChatflow(chatflowId: string): void {
    const prefix = keyOf(chatflowId, "");
    // Listed first: the LRU is not changed while it is walked.
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const [key, pending] of this.reading) if (key.startsWith(prefix)) for (const r of pending) r.stale = true;
  }

  clear(): void {
    this.entries.clear();
    for (const pending of this.reading.values()) for (const r of pending) r.stale = true;
  }

  /** Sessions held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (as counted for SESSION_HISTORY_CACHE_MB). */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}

/** Whether this process stores every message of the database it uses (see above). */
export function soleWriter(): boolean {
  const env = getEnv();
  return (
    parseDatabaseUrl(env.DATABASE_URL, env.DATA_DIR).kind === "pglite" &&
    env.MODE !== "queue" &&
    !(Number(process.env.API_PROCESSES || 1) > 1)
  );
}

/** This process's cache, or null where it keeps none. */
export function sessionHistoryCache(): SessionHistoryCache | null {
  return processState("sessionHistories", () => {
    const mb = getEnv().SESSION_HISTORY_CACHE_MB;
    if (mb === 0 || !soleWriter()) return null;
    const cache = new SessionHistoryCache(mb * 1024 * 1024);
    stateBus().subscribe(
      on({
        "chatMessages.deleted": (e) => cache.dropChatflow(e.chatflowId),
        "chatflow.deleted": (e) => cache.dropChatflow(e.chatflowId),
        "state.resync": () => cache.clear(),
      }),
    );
    return cache;
  });
}

/** A session's newest `limit` stored messages, oldest first: from this process's cache when it keeps one. */
export async function readHistory(chatflowId: string, sessionId: string, limit: number): Promise<HistoryMessage[]> {
  const cache = sessionHistoryCache();
  if (cache) return cache.read(chatflowId, sessionId, limit);
  return (await findSessionHistory({ chatflowId, sessionId, limit })).messages;
}

/** Stores an exchange (insertExchange) and tells the cache what was stored. */
export async function storeExchange(input: Parameters<typeof insertExchange>[0]) {
  const ids = await insertExchange(input);
  const cache = sessionHistoryCache();
  if (!cache) return ids;
  if (input.runId) {
    // A queue job's insert does nothing when it ran before: what is stored is not known here.
    cache.dropChatflow(input.chatflowId);
    return ids;
  }
  const { askedAt, answeredAt } = exchangeTimes(input.askedAt, input.answeredAt);
  cache.stored(
    input.chatflowId,
    input.sessionId,
    [
      { role: "userMessage", content: storableText(input.question) },
      { role: "apiMessage", content: storableText(input.answer) },
    ],
    askedAt,
    answeredAt,
  );
  return ids;
}

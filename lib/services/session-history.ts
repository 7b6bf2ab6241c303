import { getEnv } from "../env";
import { parseDatabaseUrl } from "../db/connection";
import { exchangeTimes, insertExchange, findSessionHistory } from "../db/queries/chat-messages";
import { storableText } from "../db/storable-text";
import type { HistoryMessage } from "../flow";
import { workExecutesHere } from "../jobs";
import { Cache, on, PROCESS_STATE, processState, stateBus } from "../state";

/**
 * The stored history a memory node reads on every prediction, kept for the sessions this process
 * served lately, so the next turn of a chat reads no statement. Only where this process stores
 * every message there is: the embedded database (one process opens it) served by one API process,
 * which runs its predictions itself (no queue workers: workExecutesHere in lib/jobs)
 * (SESSION_HISTORY_CACHE_MB, 0: off). Elsewhere other processes store exchanges this one would not
 * see, and every read goes to the database.
 *
 * An entry holds the newest rows of a session, oldest first, exactly as the database read returns
 * them (createdAt order, a question before an answer of the same millisecond), each with its
 * createdAt. A stored exchange's two rows go where that order puts them, so turns of one session
 * that overlap (asked before the other was answered) keep the entry: both orders of completion give
 * what the database reads. A row older than everything an entry holds is not among the session's
 * newest rows and is left out (unless the entry is the whole history). A row that ties with a held
 * one (same millisecond, same role) has no order in the database: the entry is dropped and the next
 * read goes to the database. A read that was on its way to the database while an exchange of its
 * session was stored, or messages deleted, is not kept. Deleting messages (chatMessages.deleted) or
 * the chatflow (chatflow.deleted) drops the chatflow's entries; state.resync drops all.
 */

type Entry = {
  /** Oldest first. */
  rows: HistoryMessage[];
  /** Each row's createdAt (ms): `times[i]` is `rows[i]`'s. */
  times: number[];
  /** True when `rows` is the session's whole history; else its newest `rows.length` rows. */
  complete: boolean;
  /** The read's limit: appended exchanges keep at most this many rows. */
  cap: number;
};

/** A read on its way to the database; `stale` once its session changed meanwhile. */
type Reading = { stale: boolean };

/** The read's order among rows of one millisecond: the MessageRole enum's (question first). */
const roleRank = (role: HistoryMessage["role"]) => (role === "userMessage" ? 0 : 1);

/**
 * Where a row at `at` with `role` goes among `entry`'s rows (oldest first): its index, or -1 when a
 * held row has the same millisecond and role (the database gives the two no order).
 */
function placeOf(entry: Entry, at: number, role: HistoryMessage["role"]): number {
  const rank = roleRank(role);
  let i = entry.rows.length;
  // From the newest end: a stored exchange is nearly always the newest.
  while (i > 0) {
    const t = entry.times[i - 1];
    const r = roleRank(entry.rows[i - 1].role);
    if (t < at || (t === at && r < rank)) break;
    if (t === at && r === rank) return -1;
    i -= 1;
  }
  return i;
}

const keyOf = (chatflowId: string, sessionId: string) => `${chatflowId}\u0000${sessionId}`;
/** Bytes an entry holds, roughly: UTF-16 text plus object overheads and its time. */
const entryBytes = (e: Entry) => e.rows.reduce((n, r) => n + 2 * r.content.length + 72, 128);

export class SessionHistoryCache {
  private readonly entries: Cache<Entry>;
  private readonly reading = new Map<string, Set<Reading>>();
  hits = 0;
  misses = 0;

  /** `load` reads from the database (tests slow it down to interleave reads and writes). */
  constructor(
    maxBytes: number,
    private readonly load: typeof findSessionHistory = findSessionHistory,
  ) {
    this.entries = new Cache<Entry>(PROCESS_STATE.sessionHistories.cache, { bytes: { maxBytes, sizeOf: entryBytes } });
  }

  /** The newest `limit` messages of the session, oldest first (as the database read gives them). */
  async read(chatflowId: string, sessionId: string, limit: number): Promise<HistoryMessage[]> {
    const key = keyOf(chatflowId, sessionId);
    const held = this.entries.getHeld(key);
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
      const { messages, times } = await this.load({ chatflowId, sessionId, limit });
      if (!reading.stale)
        this.entries.set(key, {
          rows: messages.map((m) => ({ ...m })),
          times: [...times],
          complete: messages.length < limit,
          cap: limit,
        });
      return messages;
    } finally {
      pending.delete(reading);
      if (pending.size === 0) this.reading.delete(key);
    }
  }

  /** An exchange was stored: its two rows as stored (the question, then the answer), at these times (ms, as stored). */
  stored(chatflowId: string, sessionId: string, rows: HistoryMessage[], askedAt: number, answeredAt: number): void {
    const key = keyOf(chatflowId, sessionId);
    for (const r of this.reading.get(key) ?? []) r.stale = true;
    const held = this.entries.peek(key);
    if (!held) return;
    const next: Entry = { ...held, rows: [...held.rows], times: [...held.times] };
    const [question, answer] = rows;
    for (const [row, at] of [
      [question, askedAt],
      [answer, answeredAt],
    ] as const) {
      const place = placeOf(next, at, row.role);
      if (place < 0) {
        this.entries.delete(key);
        return;
      }
      // Older than every held row of a partial history: not among the session's newest rows.
      if (place === 0 && !next.complete && next.rows.length > 0) continue;
      next.rows.splice(place, 0, row);
      next.times.splice(place, 0, at);
    }
    if (next.rows.length > next.cap) {
      const cut = next.rows.length - next.cap;
      next.rows.splice(0, cut);
      next.times.splice(0, cut);
      next.complete = false;
    }
    this.entries.set(key, next);
  }

  dropChatflow(chatflowId: string): void {
    const prefix = keyOf(chatflowId, "");
    this.entries.deleteWhere((_, key) => key.startsWith(prefix));
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
    return this.entries.bytes;
  }
}

/** Whether this process stores every message of the database it uses (see above). */
export function soleWriter(): boolean {
  const env = getEnv();
  return (
    parseDatabaseUrl(env.DATABASE_URL, env.DATA_DIR).kind === "pglite" &&
    workExecutesHere() &&
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

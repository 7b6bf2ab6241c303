import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createInProcessBus, createRelayedBus, on, type BusTransport } from "./bus";
import { parseStateEvent, type StateEvent } from "./events";
import { PROCESS_STATE } from "./catalogue";
import { listProcessState, processState } from "./registry";
import { publishChange, stateBus } from "./index";

describe("in-process invalidation bus", () => {
  it("delivers every event to every subscriber before publish resolves, in subscription order", async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(`a:${e.type}`));
    bus.subscribe((e) => seen.push(`b:${e.type}`));
    const done = bus.publish({ type: "credential.deleted", credentialId: "c1" });
    expect(seen).toEqual(["a:credential.deleted", "b:credential.deleted"]);
    await done;
  });

  it("stops delivering after unsubscribe, and a throwing subscriber does not stop the others", async () => {
    const log = vi.fn();
    const bus = createInProcessBus(log);
    const a = vi.fn(() => {
      throw new Error("broken cache");
    });
    const b = vi.fn();
    bus.subscribe(a);
    const offB = bus.subscribe(b);
    await bus.publish({ type: "user.deleted", userId: "u1" });
    expect(b).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("user.deleted"), expect.any(Error));
    offB();
    await bus.publish({ type: "user.deleted", userId: "u2" });
    expect(b).toHaveBeenCalledTimes(1);
    expect(a).toHaveBeenCalledTimes(2);
  });

  it("on() routes each event type to its handler only", async () => {
    const bus = createInProcessBus();
    const saved = vi.fn();
    const revoked = vi.fn();
    bus.subscribe(on({ "chatflow.saved": saved, "apiKey.revoked": revoked }));
    await bus.publish({ type: "chatflow.saved", chatflowId: "f1" });
    await bus.publish({ type: "chatflow.deleted", chatflowId: "f1" });
    await bus.publish({ type: "apiKey.revoked", apiKeyId: "k1", prefix: "sy_abc" });
    expect(saved.mock.calls).toEqual([[{ type: "chatflow.saved", chatflowId: "f1" }]]);
    expect(revoked.mock.calls).toEqual([[{ type: "apiKey.revoked", apiKeyId: "k1", prefix: "sy_abc" }]]);
  });

  it("events are plain JSON that survive a round trip, and foreign messages are checked", () => {
    const event: StateEvent = { type: "apiKey.created", apiKeyId: "k1", prefix: "sy_abc" };
    expect(parseStateEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
    expect(parseStateEvent({ type: "credential.updated" })).toBeNull();
    expect(parseStateEvent({ type: "everything.cleared" })).toBeNull();
    expect(parseStateEvent("credential.updated")).toBeNull();
  });

  it("the process bus is one instance, and publishChange reaches its subscribers", async () => {
    expect(stateBus()).toBe(stateBus());
    const seen = vi.fn();
    const off = stateBus().subscribe(seen);
    await publishChange({ type: "chatflow.deleted", chatflowId: "f9" });
    off();
    expect(seen).toHaveBeenCalledWith({ type: "chatflow.deleted", chatflowId: "f9" });
  });
});

describe("relayed bus (the shape a Redis-backed bus takes)", () => {
  /** Two processes joined by a fake channel that, like Redis, carries JSON text. */
  function twoProcesses() {
    const listeners = new Map<string, (message: unknown) => void>();
    const transport = (self: string, other: string): BusTransport => ({
      async send(event) {
        const text = JSON.stringify(event);
        queueMicrotask(() => listeners.get(other)?.(JSON.parse(text)));
      },
      listen(receive) {
        listeners.set(self, receive);
        return () => listeners.delete(self);
      },
    });
    return { a: createRelayedBus(transport("a", "b")), b: createRelayedBus(transport("b", "a"), vi.fn()), listeners };
  }

  it("delivers here before publish resolves, and in the other process once the message arrives", async () => {
    const { a, b } = twoProcesses();
    const inA = vi.fn();
    const inB = vi.fn();
    a.subscribe(inA);
    b.subscribe(inB);
    await a.publish({ type: "credential.updated", credentialId: "c1" });
    expect(inA).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(inB).toHaveBeenCalledWith({ type: "credential.updated", credentialId: "c1" }));
    expect(inA).toHaveBeenCalledTimes(1);
  });

  it("ignores malformed messages, stops listening on close, and survives a failed send", async () => {
    const log = vi.fn();
    let receive!: (m: unknown) => void;
    const bus = createRelayedBus(
      {
        send: () => Promise.reject(new Error("redis down")),
        listen: (r) => {
          receive = r;
          return () => undefined;
        },
      },
      log,
    );
    const seen = vi.fn();
    bus.subscribe(seen);
    receive({ type: "everything.cleared" });
    expect(seen).not.toHaveBeenCalled();
    await expect(bus.publish({ type: "user.deleted", userId: "u1" })).resolves.toBeUndefined();
    expect(seen).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("not sent"), expect.any(Error));
    const { a, b, listeners } = twoProcesses();
    b.close();
    expect(listeners.has("b")).toBe(false);
    await a.publish({ type: "user.deleted", userId: "u2" });
  });
});

describe("process state registry", () => {
  it("creates each named piece once per process and lists it as created", () => {
    const create = vi.fn(() => new Map());
    const first = processState("uploadLocks", create);
    expect(processState("uploadLocks", create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
    expect(listProcessState().find((s) => s.name === "uploadLocks")).toMatchObject({
      created: true,
      home: "lib/security/stored-files.ts",
    });
  });

  it("is the one place that lists process state: no other module keeps its own globalThis property", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const declared = new Set<string>(
      Object.values(PROCESS_STATE).flatMap((s): string[] => ("global" in s ? [String(s.global)] : [])),
    );
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!["generated", "state", "__fixtures__"].includes(entry.name)) walk(full);
        } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts")) {
          const text = fs.readFileSync(full, "utf8");
          for (const m of text.matchAll(/globalThis\b[^;\n]*?\b(__switchyard\w*)/g))
            if (!declared.has(m[1])) offenders.push(`${path.relative(root, full)}: ${m[1]}`);
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });

  it("lists every cache with the bounds it is made with: each is the one cache, made from its catalogue entry", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const made: string[] = [];
    const strays: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!["generated", "__fixtures__"].includes(entry.name)) walk(full);
        } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          const file = path.relative(root, full);
          const text = fs.readFileSync(full, "utf8");
          if (file !== "lib/state/cache.ts" && /from "lru-cache"/.test(text)) strays.push(`${file}: lru-cache`);
          for (const m of text.matchAll(/new Cache\b[^(]*\(([^,)]*)/g)) {
            const name = /^PROCESS_STATE\.(\w+)\.cache$/.exec(m[1].trim())?.[1];
            if (name && PROCESS_STATE[name as keyof typeof PROCESS_STATE].home.includes(file)) made.push(name);
            else strays.push(`${file}: new Cache(${m[1]})`);
          }
        }
      }
    };
    for (const dir of ["lib", "app"]) walk(path.join(root, dir));
    expect(strays).toEqual([]);
    const listed = Object.entries(PROCESS_STATE).flatMap(([name, s]) => ("cache" in s ? [name] : []));
    expect(made.sort()).toEqual(listed.sort());
  });
});

import { describe, expect, it } from "vitest";
import { createEventReader, createSseParser, decodeEvent, type StreamEvent } from "./sse-parser";

/** Feeds `wire` in pieces of `size` characters (every split point when size is 1) and returns the data. */
function parse(wire: string, size = wire.length): string[] {
  const out: string[] = [];
  const p = createSseParser((d) => out.push(d));
  for (let i = 0; i < wire.length; i += size) p.push(wire.slice(i, i + size));
  p.end();
  return out;
}

/** Every way of cutting `wire` in two. */
function everySplit(wire: string): string[][] {
  const results: string[][] = [];
  for (let i = 0; i <= wire.length; i++) {
    const out: string[] = [];
    const p = createSseParser((d) => out.push(d));
    p.push(wire.slice(0, i));
    p.push(wire.slice(i));
    p.end();
    results.push(out);
  }
  return results;
}

describe("createSseParser", () => {
  it("ends lines at \\n, \\r\\n and \\r alike", () => {
    for (const nl of ["\n", "\r\n", "\r"]) {
      expect(parse(`data: a${nl}${nl}data: b${nl}${nl}`), JSON.stringify(nl)).toEqual(["a", "b"]);
    }
    expect(parse("data: a\r\rdata: b\n\ndata: c\r\n\r\n")).toEqual(["a", "b", "c"]);
  });

  it("joins a message's data lines with \\n, whatever ends the lines", () => {
    expect(parse("data: one\r\ndata: two\rdata:three\n\n")).toEqual(["one\ntwo\nthree"]);
    expect(parse("data\ndata: x\n\n")).toEqual(["\nx"]);
  });

  it("gives the same messages however the text is split, even between \\r and \\n", () => {
    const wire = 'data: {"event":"token","data":"a"}\r\ndata: more\r\n\r\n: heartbeat\r\rdata: b\r\n\r\n';
    const whole = parse(wire);
    expect(whole).toEqual(['{"event":"token","data":"a"}\nmore', "b"]);
    expect(parse(wire, 1)).toEqual(whole);
    for (const split of everySplit(wire)) expect(split).toEqual(whole);
  });

  it("skips comments (heartbeats) and fields other than data, and drops one space after the colon", () => {
    expect(parse(": heartbeat\n\n:\n\nevent: token\nid: 7\nretry: 10\ndata:  two spaces\n\n")).toEqual([" two spaces"]);
    expect(parse(": heartbeat\n\n")).toEqual([]);
  });

  it("delivers a last message without its blank line, and drops a byte-order mark", () => {
    expect(parse("\uFEFFdata: a\n\ndata: b")).toEqual(["a", "b"]);
    expect(parse("data: a\r")).toEqual(["a"]);
  });
});

describe("decodeEvent", () => {
  it("reads our {event, data} JSON, and anything else as a message event", () => {
    expect(decodeEvent('{"event":"token","data":"hi"}')).toEqual({ event: "token", data: "hi" });
    expect(decodeEvent('{"text":"no event"}')).toEqual({ event: "message", data: { text: "no event" } });
    expect(decodeEvent("[DONE]")).toEqual({ event: "message", data: "[DONE]" });
    expect(decodeEvent("not json {")).toEqual({ event: "message", data: "not json {" });
    expect(decodeEvent("null")).toEqual({ event: "message", data: null });
  });

  it("keeps going after a non-JSON message", () => {
    const events: StreamEvent[] = [];
    const r = createEventReader((e) => events.push(e));
    r.push('data: oops\n\ndata: {"event":"end","data":"[DONE]"}\n\n');
    r.end();
    expect(events).toEqual([
      { event: "message", data: "oops" },
      { event: "end", data: "[DONE]" },
    ]);
  });
});

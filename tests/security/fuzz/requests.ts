// Malformed HTTP requests for the fuzz test, from a seeded generator so a failure can be replayed.
// Each request aims at one route file of app/api: its own methods most of the time, other and
// unknown methods sometimes; ids valid, unknown or malformed; query strings and bodies broken in
// the ways the 12,000-request attack did (wrong JSON, deep JSON, NUL, huge strings, wrong
// content types, multipart garbage) under every kind of caller.

export type FuzzRequest = { method: string; target: string; headers: Record<string, string>; body?: Buffer };

/** What the fixtures of the run provide: ids that exist, and the callers' headers. */
export type FuzzFixtures = {
  ids: string[];
  nodeIds: string[];
  callers: Record<string, Record<string, string>>;
};

/** A small, fast PRNG (mulberry32): the same seed gives the same requests. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof seededRandom>;

const STANDARD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const UNKNOWN_METHODS = [
  "TRACE",
  "CONNECT",
  "PROPFIND",
  "MKCOL",
  "LINK",
  "PURGE",
  "FOO",
  "get",
  "Post",
  "DEBUG",
  "M-SEARCH",
];
const BAD_IDS = [
  "not-a-uuid",
  "%ff",
  "%00",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "..",
  "%",
  "%E0%A4%A",
  "%C0%AE%C0%AE",
  "%F0%9F%92%A9",
  "00000000-0000-0000-0000-000000000000",
  "7D0C4A3E-2F7B-4F6E-9A51-3C2D1E0F9A8B",
  "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b%00",
  "'%20OR%201=1--",
  "%3Cscript%3E",
  "-1",
  "1e999",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "%u0000",
  "a".repeat(3000),
  "%0d%0aSet-Cookie:%20x=1",
  "%09",
  "..%5c..%5cwin.ini",
  "%25ff",
];
const QUERY_KEYS = [
  "sessionId",
  "chatId",
  "chatType",
  "memoryType",
  "feedbackType",
  "feedback",
  "startDate",
  "endDate",
  "page",
  "limit",
  "sort",
  "order",
  "q",
  "status",
  "search",
  "isValid",
  "x",
  "__proto__",
  "constructor",
  "callbackUrl",
  "error",
  "csrf",
  "id",
  "",
];
const QUERY_VALUES = [
  "",
  "A",
  "%00",
  "%ff",
  "-1",
  "0",
  "99999999999999999999",
  "2026-13-45",
  "ASC",
  "desc",
  "true",
  "INTERNAL",
  "Buffer%20Memory",
  "%27%3B%20DROP%20TABLE%20%22User%22%3B--",
  "a".repeat(2000),
  "%E2%80%AE",
  "name:asc",
  "-createdAt",
  "1.5",
  "NaN",
  "%0a",
];
const STRINGS = [
  "",
  " ",
  "hi",
  "a\u0000b",
  "\u0000",
  "x".repeat(70_000),
  "\ud800",
  "😀",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%ff",
  "null",
];
const CONTENT_TYPES = [
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/json; charset=utf-16",
  "application/octet-stream",
  "image/png",
  "application/json;;;",
  "*/*",
  "",
  "application/merge-patch+json",
  "text/event-stream",
];

/** A plausible body for some route, so mutations reach past the first schema check. */
function plausibleBody(r: Rng, fx: FuzzFixtures): Record<string, unknown> {
  const id = () => r.pick(fx.ids);
  return r.pick([
    () => ({
      question: r.pick(STRINGS),
      streaming: r.chance(0.5),
      overrideConfig: { sessionId: r.pick(STRINGS) },
      history: [{ role: "userMessage", content: r.pick(STRINGS) }],
    }),
    () => ({
      name: r.pick(STRINGS),
      graph: {
        nodes: [
          {
            id: "n1",
            type: "chatOpenAICompatible",
            position: { x: 0, y: 0 },
            data: { inputs: { temperature: r.pick(STRINGS) } },
          },
        ],
        edges: [],
      },
    }),
    () => ({
      name: "x",
      isPublic: r.chance(0.5),
      allowedOrigins: [r.pick(STRINGS)],
      rateLimit: { max: r.pick([-1, 0, 1, 1e12]), windowSec: 1 },
    }),
    () => ({
      email: `${r.pick(STRINGS)}@example.com`,
      name: r.pick(STRINGS),
      password: r.pick(STRINGS),
      role: r.pick(["admin", "builder", "root"]),
    }),
    () => ({
      name: r.pick(STRINGS),
      permissions: [r.pick(["predict", "upsert", "chatflows", "messages", "domains", "root"])],
      chatflowIds: [id()],
    }),
    () => ({
      name: r.pick(STRINGS),
      type: r.pick(["openai", "anthropic", "httpHeaders", "nope"]),
      data: { apiKey: r.pick(STRINGS), baseURL: r.pick(STRINGS) },
    }),
    () => ({ names: [r.pick(STRINGS), "example.com"], name: r.pick(STRINGS) }),
    () => ({ chatflowId: id(), ids: [id()], filter: { q: r.pick(STRINGS) } }),
    () => ({
      overrideConfig: { [r.pick(["baseURL", "serverUrl", "sessionId", "temperature"])]: r.pick(STRINGS) },
      stopNodeId: r.pick(STRINGS),
    }),
    () => ({ expectedVersion: r.pick([1, -1, "x", 1e30]), graph: { nodes: r.pick([[], "x", null]), edges: [] } }),
    () => ({
      question: "look",
      uploads: [
        {
          type: r.pick(["file", "audio", "url", "x"]),
          name: r.pick(STRINGS),
          mime: r.pick(["image/png", "audio/webm", "text/html"]),
          data: r.pick([
            "data:image/png;base64,!!!",
            "data:,",
            "data:image/png;base64,iVBORw0KGgo=",
            "http://127.0.0.1:1/x",
            "",
            "data:audio/webm;base64,AAAA",
          ]),
        },
      ],
    }),
    () => ({
      graph: {
        nodes: [
          {
            id: "model",
            type: "chatOpenAICompatible",
            position: { x: 0, y: 0 },
            data: { inputs: { temperature: r.pick([0.5, "hot", -1, 1e308]), maxTokens: r.pick([1, -5, "x"]) } },
          },
          {
            id: "conv",
            type: r.pick(["conversationChain", "llmChain", "nope", "openApiChain"]),
            position: { x: 1, y: 1 },
            data: { inputs: { prompt: r.pick(STRINGS) } },
          },
        ],
        edges: [
          {
            id: "e",
            source: "model",
            sourceHandle: r.pick(["model-chatModel", "x", ""]),
            target: "conv",
            targetHandle: r.pick(["conv-model", "conv-x"]),
          },
        ],
      },
    }),
  ])();
}

/** Replaces one leaf of a body with something hostile. */
function mutate(r: Rng, value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") {
    return r.pick([
      () => r.pick(STRINGS),
      () => r.int(1e9) - 5e8,
      () => null,
      () => [],
      () => ({}),
      () => true,
      () => 1e308,
      () => value,
    ])();
  }
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ({ ...value } as Record<string, unknown>)
    : { ...(value as object) };
  const keys = Object.keys(copy);
  if (!keys.length || r.chance(0.2))
    copy[r.pick(["__proto__", "constructor", "extra", "a\u0000", "id", "createdAt"])] = r.pick(STRINGS);
  else {
    const k = r.pick(keys);
    copy[k] = mutate(r, copy[k], depth + 1);
  }
  return Array.isArray(value) ? Object.values(copy) : copy;
}

function deepJson(r: Rng): string {
  const depth = r.pick([65, 100, 3000, 20_000]);
  const inner = r.chance(0.5)
    ? `{"question":"hi","inputs":${"[".repeat(depth)}1${"]".repeat(depth)}}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  return r.chance(0.5)
    ? `{"name":"deep","graph":{"nodes":[{"id":"n","type":"x","position":{"x":0,"y":0},"data":{"inputs":${inner}}}],"edges":[]}}`
    : inner;
}

const BROKEN_JSON = [
  "{",
  "nul",
  '{"a":}',
  "[]",
  "null",
  "1",
  '"s"',
  '{"__proto__":{"admin":true}}',
  "\u0000",
  '{"a":"\\ud800"}',
  '{"a":1,"a":2}',
  "a=b&c=d",
  "\ufeff{}",
];

function multipart(r: Rng): { type: string; body: Buffer } {
  const boundary = r.pick(["XyZ", "----b", "", "a".repeat(80)]);
  const part = (headers: string, content: string | Buffer) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n")]);
  const parts = [
    part(
      `Content-Disposition: form-data; name="files"; filename="${r.pick(["a.txt", "../../x.pdf", "a\u0000.md", "", "x.docx"])}"\r\nContent-Type: ${r.pick(["text/plain", "application/pdf", "x/y"])}`,
      r.pick([
        Buffer.from("%PDF-1.7 garbage"),
        Buffer.from([0x50, 0x4b, 3, 4, 0, 0]),
        Buffer.from("hello"),
        Buffer.alloc(10, 0),
      ]),
    ),
    part(
      `Content-Disposition: form-data; name="${r.pick(["question", "returnSourceDocuments", "stopNodeId", "a\u0000", "sessionId"])}"`,
      r.pick(STRINGS.slice(0, 6)),
    ),
  ];
  const end = r.pick([`--${boundary}--\r\n`, "", `--${boundary}`, "--wrong--\r\n"]);
  const type = r.pick([
    `multipart/form-data; boundary=${boundary}`,
    "multipart/form-data",
    `multipart/form-data; boundary="${boundary}`,
  ]);
  return { type, body: Buffer.concat([...parts.slice(0, 1 + r.int(2)), Buffer.from(end)]) };
}

function body(r: Rng, fx: FuzzFixtures): { type?: string; body?: Buffer } {
  const json = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v));
  return r.pick([
    () => ({}),
    () => ({ type: "application/json", body: json(plausibleBody(r, fx)) }),
    () => ({ type: "application/json", body: json(mutate(r, plausibleBody(r, fx))) }),
    () => ({ type: "application/json", body: json(mutate(r, mutate(r, plausibleBody(r, fx)))) }),
    () => ({ type: "application/json", body: json(r.pick(BROKEN_JSON)) }),
    () => ({ type: "application/json", body: json(deepJson(r)) }),
    () => ({ type: "application/json", body: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3]) }),
    () => ({ type: "application/json", body: json({ question: "x".repeat(r.pick([1_100_000, 300_000])) }) }),
    () => ({ type: r.pick(CONTENT_TYPES), body: json(r.chance(0.5) ? plausibleBody(r, fx) : r.pick(BROKEN_JSON)) }),
    () => multipart(r),
    () => ({
      type: "application/x-www-form-urlencoded",
      body: json(
        r.pick(["csrfToken=x&email=a%40b.c&password=p", "%ff=%00", "a=%E0%A4%A", "email=a%00b", "&&&==", "json=true"]),
      ),
    }),
  ])();
}

function callerHeaders(r: Rng, fx: FuzzFixtures): Record<string, string> {
  const bad: Record<string, string>[] = [
    { authorization: "Bearer sy_unknown_0123456789abcdef" },
    { authorization: "Bearer " },
    { authorization: "Bearer \u00e9" },
    { authorization: "Basic !!!" },
    { authorization: `Basic ${Buffer.from("no-colon").toString("base64")}` },
    { authorization: "Digest abc" },
    { authorization: "x".repeat(5000) },
    { cookie: "next-auth.session-token=garbage" },
    { cookie: `next-auth.session-token=${"a.".repeat(500)}` },
    { cookie: "=;;=;" },
  ];
  // Basic auth costs a slow password hash per request: sent rarely, so the default run stays short.
  const { basicAdmin, ...cheap } = fx.callers;
  if (basicAdmin && r.chance(0.03)) return { ...basicAdmin };
  if (r.chance(0.02)) return { authorization: `Basic ${Buffer.from("admin@fuzz.test:wrong").toString("base64")}` };
  return r.chance(0.6) ? { ...r.pick(Object.values(cheap)) } : { ...r.pick(bad) };
}

/** A target for a route file's path: dynamic segments filled with valid, unknown or malformed ids. */
function target(r: Rng, routeFile: string, fx: FuzzFixtures): string {
  const segments = routeFile
    .replace(/^app\//, "")
    .replace(/\/route\.ts$/, "")
    .split("/")
    .map((s) => {
      if (/^\[\.\.\./.test(s))
        return r.pick(["x", "v1/nope", "v2/chatflows", "V1/ping", "v1/chatflows/a/b/c", r.pick(BAD_IDS)]);
      if (s === "[nodeId]") return r.chance(0.6) ? r.pick(fx.nodeIds) : r.pick(BAD_IDS);
      if (/^\[/.test(s)) return r.chance(0.5) ? r.pick(fx.ids) : r.pick(BAD_IDS);
      return s;
    });
  let path = `/${segments.join("/")}`;
  if (r.chance(0.08)) path += r.pick(["/", "//", "/extra", "/%ff", "/..", "?"]);
  if (r.chance(0.05)) path = path.replace("/v1/", r.pick(["/V1/", "//v1/", "/v1/./", "/v1/%2e/"]));
  if (r.chance(0.45)) {
    const n = 1 + r.int(3);
    const pairs = Array.from({ length: n }, () => `${r.pick(QUERY_KEYS)}=${r.pick(QUERY_VALUES)}`);
    path += `?${pairs.join("&")}${r.chance(0.1) ? "&%ff" : ""}`;
  }
  return path;
}

/** A body each writing route accepts, by a part of its file path. */
function validBody(file: string, fx: FuzzFixtures): Record<string, unknown> | undefined {
  const bodies: [string, Record<string, unknown>][] = [
    ["prediction", { question: "hello there", overrideConfig: { sessionId: "fuzz-session" } }],
    ["chatflows/[id]", { name: "Renamed", description: "about" }],
    [
      "chatflows/import",
      {
        name: "Imported",
        nodes: [{ id: "m_0", position: { x: 0, y: 0 }, data: { name: "bufferMemory", label: "Memory", inputs: {} } }],
        edges: [],
      },
    ],
    ["chatflows", { name: "New flow", description: "about" }],
    ["users", { email: "new@fuzz.test", name: "New", password: "new-password-123", role: "builder" }],
    ["apikey", { name: "new key", permissions: ["predict"] }],
    ["credentials", { name: "cred", type: "openai", data: { apiKey: "sk-x" } }],
    ["domains/analyze", { chatflowId: fx.ids[0], filter: {} }],
    ["domains", { names: ["fuzz.example"] }],
    ["vector/upsert", { overrideConfig: {} }],
    ["setup", { email: "root@fuzz.test", name: "Root", password: "root-password-123" }],
  ];
  return bodies.find(([part]) => file.includes(part))?.[1];
}

/** Puts one hostile string (NUL, lone surrogate, control characters) into a random string of a body. */
function poison(r: Rng, value: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(value);
  const slots: [Record<string, unknown>, string][] = [];
  const walk = (o: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === "string") slots.push([o, k]);
      else if (v && typeof v === "object") walk(v as Record<string, unknown>);
    }
  };
  walk(copy);
  if (!slots.length) return copy;
  const [holder, key] = r.pick(slots);
  holder[key] = `${holder[key]}${r.pick(["\u0000", "\ud800", "\u0001\u001f", "\u0000\u0000x", "'; DROP TABLE x;--"])}`;
  return copy;
}

/**
 * A request that passes every check but one hostile string, from a signed-in admin with real ids:
 * what reached the database and answered 500 in the attack (NUL after the model was called).
 */
function nearlyValid(r: Rng, routes: { file: string; methods: string[] }[], fx: FuzzFixtures): FuzzRequest | null {
  const route = r.pick(routes.filter((x) => validBody(x.file, fx)));
  const writes = route.methods.filter((m) => ["POST", "PUT", "PATCH"].includes(m));
  const body = validBody(route.file, fx);
  if (!writes.length || !body) return null;
  const path = route.file
    .replace(/^app/, "")
    .replace(/\/route\.ts$/, "")
    .replace(/\[nodeId\]/, fx.nodeIds[0])
    .replace(/\[\w+\]/g, fx.ids[0]);
  const streaming = route.file.includes("prediction") && r.chance(0.5) ? { streaming: true } : {};
  return {
    method: r.pick(writes),
    target: path,
    headers: { ...(fx.callers.admin ?? {}), "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(poison(r, { ...body, ...streaming }))),
  };
}

/** The i-th request of a run. */
export function fuzzRequest(r: Rng, routes: { file: string; methods: string[] }[], fx: FuzzFixtures): FuzzRequest {
  if (r.chance(0.12)) {
    const near = nearlyValid(r, routes, fx);
    if (near) return near;
  }
  const route = r.pick(routes);
  const roll = r.next();
  const method =
    roll < 0.65 && route.methods.length
      ? r.pick(route.methods)
      : roll < 0.88
        ? r.pick(STANDARD)
        : r.pick(UNKNOWN_METHODS);
  const { type, body: payload } =
    method === "GET" || method === "HEAD" ? (r.chance(0.1) ? body(r, fx) : {}) : body(r, fx);
  const headers: Record<string, string> = { ...callerHeaders(r, fx) };
  if (type !== undefined) headers["content-type"] = type;
  if (r.chance(0.15))
    headers.origin = r.pick(["https://evil.example", "null", "http://127.0.0.1:3000", "https://shop.example"]);
  if (r.chance(0.05)) headers["x-forwarded-for"] = r.pick(["1.2.3.4", "garbage", "::1, 10.0.0.1"]);
  if (r.chance(0.05)) headers.accept = r.pick(["text/event-stream", "*/*", "application/xml"]);
  return { method, target: target(r, route.file, fx), headers, body: payload };
}

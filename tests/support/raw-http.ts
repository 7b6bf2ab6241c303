import net from "node:net";

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * Sends one HTTP/1.1 request byte for byte over a socket: any method, any request target (a bad
 * percent-escape, a raw control character), any header. fetch and http.request refuse to send
 * most of what an attacker sends, so a fuzz test needs this.
 */
export function rawRequest(
  port: number,
  req: { method: string; target: string; headers?: Record<string, string>; body?: Buffer },
  timeoutMs = 20_000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms to ${req.method} ${req.target.slice(0, 200)}`));
    }, timeoutMs);
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", (err) => {
      clearTimeout(timer);
      // The server may close the socket before reading a body it refused: keep what it answered.
      chunks.length ? resolve(parse(Buffer.concat(chunks))) : reject(err);
    });
    socket.on("end", () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks)));
    });
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, connection: "close", ...req.headers };
    if (req.body) headers["content-length"] = String(req.body.length);
    const head = `${req.method} ${req.target} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n")}\r\n\r\n`;
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), req.body ?? Buffer.alloc(0)]));
  });
}

function parse(raw: Buffer): RawResponse {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw
    .subarray(0, split < 0 ? raw.length : split)
    .toString("latin1")
    .split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4);
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = unchunk(body);
  return { status, headers, body: body.toString("utf8") };
}

function unchunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString("latin1"), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

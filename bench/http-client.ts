// The benches' HTTP client: node:http over keep-alive connections, the answer read whole as text.
//
// The benches used fetch (undici) for their measured requests. Node 20's fetch registers every
// Response and its body stream with a FinalizationRegistry; those objects outlive the young
// generation's collections, so the bench process promoted ~70 KB per request and its scavenges took
// 5-12 ms each (--trace-gc-nvp: 16% of the young generation surviving). The bench process also runs
// the model stub and the product API, so every such pause landed inside a measured prediction and in
// the model-direct baseline alike: at c=1 about half of the slowest 5% of predictions had one. A load
// generator should add as little of its own as it can; this one allocates a request and a few
// buffers per call.
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

export interface BenchResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<BenchResponse> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const req = http.request(
      url,
      {
        method: init.method ?? "GET",
        agent,
        headers: { ...init.headers, ...(body ? { "content-length": String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * An HTTP server on 127.0.0.1 (free port) that records every request it gets, for tests that must
 * show a request never arrived (an attacker's server, an internal address) or arrived without a
 * secret. `respond` decides the answer; by default 401 like a provider refusing the key.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface RecordingServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** 127.0.0.1:<port> */
  host: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Respond = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const refuse: Respond = (_req, res) => {
  res.writeHead(401, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: "no" } }));
};

/** Starts the server; `respond` may also never answer (a model that hangs). */
export async function createRecordingServer(respond: Respond = refuse): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    req.on("end", () => respond(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was free a moment ago and has nothing listening on it now (a refused connection). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

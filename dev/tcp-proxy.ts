import net from "node:net";
import { freePort } from "./redis-server";

// A TCP fault proxy for tests: listens on a free port of 127.0.0.1 and forwards every connection
// to a target (PostgreSQL, Redis, …). down() cuts every open connection and refuses new ones (the
// port is closed: clients get ECONNREFUSED, as from a stopped server); up() accepts again on the
// same port. For outages of a server the test must not stop itself (the machine's 5432 or 6379).

export type TcpProxy = {
  port: number;
  /** Connections being forwarded now. */
  connections(): number;
  /**
   * Cuts every open connection (each client reads the end of its stream, as from a stopped server)
   * and closes the port. Resolves once every client has read the cut and closed its side, so a pool
   * in this process has dropped those connections before the test's next query (a client that does
   * not read is dropped after PEER_GRACE_MS).
   */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  isUp(): boolean;
  /** down() for good. */
  close(): Promise<void>;
};

/** How long down() waits for a client to read its cut before dropping it. */
const PEER_GRACE_MS = 2_000;

type Forwarded = { client: net.Socket; upstream: net.Socket; cut(): void };

export async function startTcpProxy(target: { host?: string; port: number }, options: { port?: number } = {}) {
  const host = target.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort());
  const open = new Set<Forwarded>();
  let listening = false;

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, host);
    const forwarded: Forwarded = {
      client,
      upstream,
      cut: () => {
        client.destroy();
        upstream.destroy();
        open.delete(forwarded);
      },
    };
    open.add(forwarded);
    for (const socket of [client, upstream]) socket.on("error", forwarded.cut).on("close", forwarded.cut);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  /** Ends the client's stream (it reads EOF) and resolves when it has closed its side. */
  const cutFromClient = ({ client, upstream, cut }: Forwarded) => {
    upstream
      .off("error", cut)
      .off("close", cut)
      .on("error", () => {});
    client.unpipe(upstream);
    upstream.unpipe(client);
    upstream.destroy();
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.resume(); // what it still sends goes nowhere
    client.end();
    const drop = setTimeout(() => client.destroy(), PEER_GRACE_MS);
    return closed.finally(() => clearTimeout(drop));
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        listening = true;
        resolve();
      });
    });

  await listen();

  const proxy: TcpProxy = {
    port,
    connections: () => open.size,
    isUp: () => listening,
    async down() {
      if (!listening) return;
      listening = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const cuts = [...open].map(cutFromClient);
      open.clear();
      await Promise.all([closed, ...cuts]);
    },
    async up() {
      if (!listening) await listen();
    },
    close: () => proxy.down(),
  };
  return proxy;
}

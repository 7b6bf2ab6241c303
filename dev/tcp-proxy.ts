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
  /** Cuts every open connection and closes the port. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  isUp(): boolean;
  /** down() for good. */
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host?: string; port: number }, options: { port?: number } = {}) {
  const host = target.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort());
  const open = new Set<net.Socket>();
  const clients = new Set<net.Socket>();
  let listening = false;

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, host);
    open.add(client);
    open.add(upstream);
    clients.add(client);
    const cut = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
      clients.delete(client);
    };
    client.on("error", cut);
    upstream.on("error", cut);
    client.on("close", cut);
    upstream.on("close", cut);
    client.pipe(upstream);
    upstream.pipe(client);
  });

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
    connections: () => clients.size,
    isUp: () => listening,
    async down() {
      if (!listening) return;
      listening = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of open) s.destroy();
      open.clear();
      clients.clear();
      await closed;
    },
    async up() {
      if (!listening) await listen();
    },
    close: () => proxy.down(),
  };
  return proxy;
}

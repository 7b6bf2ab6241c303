import net from "node:net";

/**
 * A TCP proxy on 127.0.0.1 to a target (e.g. the PostgreSQL server), for outage tests: `stop()`
 * closes the listener and cuts every open connection (as a server restart would), `start()`
 * listens again on the same port.
 */
export async function startTcpProxy(target: { host: string; port: number }, port = 0) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let boundPort = port;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const srv = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
        client.pipe(upstream).pipe(client);
      });
      srv.once("error", reject);
      srv.listen(boundPort, "127.0.0.1", () => {
        boundPort = (srv.address() as net.AddressInfo).port;
        server = srv;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await start();
  return {
    get port() {
      return boundPort;
    },
    start,
    stop,
  };
}

import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

// Against a tiny echo server on a free port: what goes in comes back through the proxy.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function echoServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.pipe(s);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return (server.address() as net.AddressInfo).port;
}

function connect(port: number) {
  return new Promise<net.Socket>((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
}

async function roundTrip(socket: net.Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once("data", (d) => resolve(d.toString()));
    socket.write(text);
  });
}

async function proxyTo(port: number): Promise<TcpProxy> {
  const proxy = await startTcpProxy({ port });
  cleanups.push(() => proxy.close());
  return proxy;
}

describe("TCP fault proxy (dev/tcp-proxy.ts)", () => {
  it("forwards bytes both ways", async () => {
    const proxy = await proxyTo(await echoServer());
    const s = await connect(proxy.port);
    expect(await roundTrip(s, "hello")).toBe("hello");
    expect(proxy.connections()).toBe(1);
    s.destroy();
  });

  it("down() cuts open connections and refuses new ones; up() accepts again on the same port", async () => {
    const proxy = await proxyTo(await echoServer());
    const s = await connect(proxy.port);
    await roundTrip(s, "before");
    const closed = new Promise((r) => s.once("close", r));
    s.on("error", () => {});
    await proxy.down();
    await closed;
    expect(proxy.isUp()).toBe(false);
    expect(proxy.connections()).toBe(0);
    await expect(connect(proxy.port)).rejects.toMatchObject({ code: "ECONNREFUSED" });

    await proxy.up();
    const again = await connect(proxy.port);
    expect(await roundTrip(again, "after")).toBe("after");
    again.destroy();
  });

  it("down() resolves once each client has read its cut", async () => {
    const proxy = await proxyTo(await echoServer());
    const clients = [await connect(proxy.port), await connect(proxy.port)];
    await roundTrip(clients[0], "before");
    const ended = clients.map((c) => {
      const seen = { end: false };
      c.on("end", () => (seen.end = true)).on("error", () => {});
      return seen;
    });
    await proxy.down();
    // Each saw the end of its stream before down() resolved: a pool has dropped such a connection by then.
    expect(ended).toEqual([{ end: true }, { end: true }]);
    expect(proxy.connections()).toBe(0);
  });

  it("closes the client when the target is unreachable", async () => {
    const deadPort = await echoServer();
    await cleanups.pop()?.(); // the echo server is gone: nothing listens there now
    const proxy = await proxyTo(deadPort);
    const s = await connect(proxy.port);
    s.on("error", () => {});
    await new Promise((r) => s.once("close", r));
    expect(proxy.connections()).toBe(0);
  });
});

import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 to a local port that a test can cut like a network drop: between the
 * browser and the app (e2e/widget.spec.ts), or between the app and PostgreSQL (a database that
 * stops and starts again, server/health/worker-health.test.ts). `cut()` destroys every open
 * connection (an open event stream too, which the browser's offline mode may leave running) and
 * refuses new ones until `restore()`. It counts the requests it carried that opened the widget's
 * live stream and the connections it refused.
 */
export async function cuttableProxy(targetPort: number) {
  const sockets = new Set<net.Socket>();
  let isCut = false;
  const counts = { streams: 0, refused: 0 };
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const server = net.createServer((client) => {
    if (isCut) {
      counts.refused++;
      client.on('error', () => {});
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    track(client);
    track(upstream);
    client.on('data', (chunk: Buffer) => {
      // Requests are small: each starts a chunk of its own.
      if (/^GET \/api\/channels\/widget\/[^/]+\/events /.test(chunk.toString('latin1', 0, 200)))
        counts.streams++;
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    counts,
    cut() {
      isCut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      isCut = false;
    },
    close() {
      isCut = true;
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

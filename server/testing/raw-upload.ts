import net from 'node:net';

/**
 * Sends a request with a body of `size` bytes over a raw socket, as curl or Python's requests do
 * (the whole body, then the answer read), and gives back everything the server wrote. A server
 * that closes the connection before the body is sent makes it fail with EPIPE or ECONNRESET,
 * the error carrying how many bytes had been sent.
 */
export function rawUpload(url: string, size: number, contentType = 'application/json'): Promise<string> {
  const chunk = Buffer.alloc(1024 * 1024, 'y');
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.pause();
    let sent = 0;
    let received = '';
    socket.on('error', (error) => reject(Object.assign(error, { sent })));
    socket.on('data', (data) => {
      received += data.toString('utf8');
    });
    socket.on('end', () => resolve(received));
    socket.write(
      `POST ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: ${contentType}\r\nContent-Length: ${size}\r\n\r\n`,
    );
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', write);
      }
      socket.resume();
    };
    write();
  });
}

/** The status code and the JSON body of a raw HTTP/1.1 answer, its body chunked or not. */
export function parseRawAnswer(answer: string): { head: string; status: number; body: unknown } {
  const split = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, split);
  let body = answer.slice(split + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) {
    let joined = '';
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = Number.parseInt(body.slice(at, lineEnd), 16);
      if (!size) break;
      joined += body.slice(lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
    body = joined;
  }
  return { head, status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), body: JSON.parse(body) };
}

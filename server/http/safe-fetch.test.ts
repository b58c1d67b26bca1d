import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedReason } from './address-policy';
import type { SafeHttpConfig } from './config';
import { safeFetch } from './safe-fetch';

const base: SafeHttpConfig = {
  allowHosts: [],
  egressProxies: {},
  timeoutMs: 3000,
  connectTimeoutMs: 1000,
  maxBytes: 1024 * 1024,
};
const allowLocal: SafeHttpConfig = { ...base, allowHosts: ['127.0.0.1'] };

function listen(server: http.Server, host = '127.0.0.1') {
  return new Promise<string>((resolve) =>
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)),
  );
}

let api: http.Server;
let apiUrl: string;
let trap: http.Server;
let trapUrl: string;
let trapConnections = 0;
let apiRequests = 0;
beforeAll(async () => {
  trap = http.createServer((_req, res) => res.end('reached'));
  trap.on('connection', () => trapConnections++);
  trapUrl = await listen(trap, '127.0.0.2');
  api = http.createServer((req, res) => {
    apiRequests++;
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (req.url === '/redirect-private') return res.writeHead(302, { location: `${trapUrl}/secret` }).end();
      if (req.url === '/redirect-local') return res.writeHead(302, { location: '/echo' }).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 5000).unref();
      if (req.url === '/huge') return res.end('x'.repeat(200_000));
      res.setHeader('X-Reply', 'yes');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          body,
          host: req.headers.host,
          via: req.headers['x-via'] ?? null,
        }),
      );
    });
  });
  apiUrl = await listen(api);
});
afterAll(() => {
  api.closeAllConnections();
  api.close();
  trap.close();
});

describe('the address policy', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '240.0.0.1',
    '198.18.0.1',
    '100.100.100.200',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::1',
    '2002:7f00:1::',
    '2001::1',
    'ff02::1',
    // IPv4-compatible (::/96): [::127.0.0.1] is spelled ::7f00:1 once parsed.
    '::7f00:1',
    '::a00:1',
    '::808:808',
    '::2',
    '::ffff:0:808:808',
    '2002:808:808::1',
    '64:ff9b::808:808',
    'fec0::1',
    'ff05::1',
    '100::1',
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
    '2001:2::1',
    '2620:4f:8000::1',
    '4000::1',
    'e000::1',
  ])('refuses %s', (address) => {
    expect(blockedReason(address)).not.toBeNull();
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::1'])(
    'allows the public address %s',
    (address) => {
      expect(blockedReason(address)).toBeNull();
    },
  );
});

describe('safeFetch', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://127.1/',
    'http://0x7f000001/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://localhost/',
  ])('refuses %s with a clear error and opens no connection', async (url) => {
    await expect(safeFetch(url, {}, base)).rejects.toMatchObject({
      code: 'blocked_address',
      message: expect.stringContaining('BLOCKBOT_HTTP_ALLOW_HOSTS'),
    });
  });

  it('says exactly how to allow a local address for local development, and that setting works (issue 52, item 17)', async () => {
    const refused = await safeFetch(`${apiUrl}/`, {}, base).catch((error: Error) => error);
    const host = new URL(apiUrl).host;
    expect((refused as Error).message).toContain(`start Blockbot with BLOCKBOT_HTTP_ALLOW_HOSTS=${host} `);
    await expect(safeFetch(`${apiUrl}/`, {}, { ...base, allowHosts: [host] })).resolves.toMatchObject({
      status: 200,
    });
    const v6 = await safeFetch('http://[::1]:8081/', {}, base).catch((error: Error) => error);
    expect((v6 as Error).message).toContain('BLOCKBOT_HTTP_ALLOW_HOSTS=[::1]:8081 ');
  });

  it.each([
    ['Metadata-Flavor', 'Google'],
    ['X-Google-Metadata-Request', 'True'],
    ['X-aws-ec2-metadata-token', 'token'],
    ['X-aws-ec2-metadata-token-ttl-seconds', '21600'],
    ['Metadata', 'true'],
    ['X-aliyun-ecs-metadata-token', 'token'],
    ['X-aliyun-ecs-metadata-token-ttl-seconds', '21600'],
    ['Content-Length', '5'],
    ['Transfer-Encoding', 'chunked'],
    ['Connection', 'close'],
    ['Upgrade', 'websocket'],
    ['Proxy-Authorization', 'Basic eDp5'],
    ['Proxy-Connection', 'keep-alive'],
    ['TE', 'trailers'],
    ['Trailer', 'Expires'],
    ['Keep-Alive', 'timeout=5'],
    ['Expect', '100-continue'],
    ['Host', 'metadata.google.internal'],
  ])('refuses the header %s with an error naming it, before connecting', async (name, value) => {
    const before = apiRequests;
    await expect(
      safeFetch(`${apiUrl}/echo`, { headers: { [name]: value } }, allowLocal),
    ).rejects.toMatchObject({
      code: 'bad_header',
      message: expect.stringContaining(`"${name}"`),
    });
    expect(apiRequests).toBe(before);
  });

  it("accepts a Host header that names the URL's own host", async () => {
    const { host, hostname, port } = new URL(apiUrl);
    for (const value of [host, `${hostname.toUpperCase()}:${port}`]) {
      const response = await safeFetch(`${apiUrl}/echo`, { headers: { Host: value } }, allowLocal);
      expect(JSON.parse(response.body).host).toBe(host);
    }
  });

  it('refuses other schemes and malformed URLs', async () => {
    await expect(safeFetch('file:///etc/passwd', {}, base)).rejects.toMatchObject({ code: 'bad_url' });
    await expect(safeFetch('gopher://example.com/', {}, base)).rejects.toMatchObject({ code: 'bad_url' });
    await expect(safeFetch('not a url', {}, base)).rejects.toMatchObject({ code: 'bad_url' });
  });

  it('reaches an allow-listed host and sends method, headers and body', async () => {
    const response = await safeFetch(
      `${apiUrl}/echo?q=1`,
      { method: 'POST', headers: { 'x-via': 'test' }, body: 'hello' },
      allowLocal,
    );
    expect(response.status).toBe(200);
    expect(response.headers['x-reply']).toBe('yes');
    expect(JSON.parse(response.body)).toMatchObject({
      method: 'POST',
      url: '/echo?q=1',
      body: 'hello',
      via: 'test',
    });
  });

  it('does not follow redirects unless asked, and re-checks every hop', async () => {
    const plain = await safeFetch(`${apiUrl}/redirect-local`, {}, allowLocal);
    expect(plain.status).toBe(302);
    const followed = await safeFetch(`${apiUrl}/redirect-local`, { followRedirects: 2 }, allowLocal);
    expect(JSON.parse(followed.body).url).toBe('/echo');
    const before = trapConnections;
    await expect(
      safeFetch(`${apiUrl}/redirect-private`, { followRedirects: 2 }, allowLocal),
    ).rejects.toMatchObject({ code: 'blocked_address' });
    expect(trapConnections).toBe(before);
  });

  it('times out slow servers and refuses replies over the size cap', async () => {
    await expect(safeFetch(`${apiUrl}/slow`, { timeoutMs: 300 }, allowLocal)).rejects.toMatchObject({
      code: 'timeout',
    });
    await expect(safeFetch(`${apiUrl}/huge`, { maxBytes: 1000 }, allowLocal)).rejects.toMatchObject({
      code: 'too_large',
    });
  });

  it("ends a request when the caller's signal stops it, as cancelled, closing the connection", async () => {
    let reached!: () => void;
    let closed!: () => void;
    const requestReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const connectionClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    // Never answers: only the caller's signal closes the connection.
    const hanging = http.createServer((req) => {
      req.socket.on('close', closed);
      reached();
    });
    const url = await listen(hanging);
    try {
      const stop = new AbortController();
      const pending = safeFetch(`${url}/hook`, { timeoutMs: 60_000, signal: stop.signal }, allowLocal);
      await requestReached;
      stop.abort(new Error('the job is no longer ours'));
      await expect(pending).rejects.toMatchObject({
        code: 'cancelled',
        message: `The request to ${new URL(url).host} was stopped: the job is no longer ours.`,
      });
      await connectionClosed;
    } finally {
      hanging.close();
    }
  });

  it("refuses proxy values other than 'de', and 'de' when no egress proxy is configured", async () => {
    await expect(safeFetch(`${apiUrl}/echo`, { proxy: 'us' }, allowLocal)).rejects.toMatchObject({
      code: 'bad_proxy',
    });
    await expect(safeFetch(`${apiUrl}/echo`, { proxy: 'de' }, allowLocal)).rejects.toMatchObject({
      code: 'proxy_not_configured',
      message: "proxy 'de' is not configured on this server: set BLOCKBOT_EGRESS_PROXY_DE.",
    });
  });

  it("routes proxy 'de' through the configured egress proxy, and ignores proxy environment variables", async () => {
    const proxy = await startTunnelProxy();
    process.env.HTTP_PROXY = 'http://127.0.0.1:1';
    try {
      const direct = await safeFetch(`${apiUrl}/echo`, {}, allowLocal);
      expect(direct.status).toBe(200);
      const viaProxy = await safeFetch(
        `${apiUrl}/echo`,
        { proxy: 'de' },
        { ...allowLocal, egressProxies: { de: proxy.url } },
      );
      expect(viaProxy.status).toBe(200);
      expect(proxy.seen).toEqual([`CONNECT ${new URL(apiUrl).host}`]);
    } finally {
      delete process.env.HTTP_PROXY;
      proxy.close();
    }
  });

  it('asks the proxy to CONNECT to the checked address, not the name it would resolve again', async () => {
    const proxy = await startTunnelProxy();
    const { port } = new URL(apiUrl);
    const byName = { ...base, allowHosts: ['localhost'], egressProxies: { de: proxy.url } };
    try {
      const response = await safeFetch(`http://localhost:${port}/echo`, { proxy: 'de' }, byName);
      expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${port}`]);
      // The server still hears the name, and the response keeps the URL as asked.
      expect(JSON.parse(response.body).host).toBe(`localhost:${port}`);
      expect(response.url).toBe(`http://localhost:${port}/echo`);

      // Over TLS the name goes in the SNI (and the certificate is checked against it).
      let servername: string | undefined;
      const tlsServer = tls.createServer({
        SNICallback: (name, callback) => {
          servername = name;
          callback(new Error('no certificate in this test'), undefined);
        },
      });
      const tlsPort = await new Promise<number>((resolve) =>
        tlsServer.listen(0, '127.0.0.1', () => resolve((tlsServer.address() as AddressInfo).port)),
      );
      try {
        await expect(
          safeFetch(`https://localhost:${tlsPort}/`, { proxy: 'de' }, byName),
        ).rejects.toMatchObject({ code: 'network' });
        expect(proxy.seen.at(-1)).toBe(`CONNECT 127.0.0.1:${tlsPort}`);
        expect(servername).toBe('localhost');
      } finally {
        tlsServer.close();
      }
    } finally {
      proxy.close();
    }
  });
});

/** A tunnelling proxy on 127.0.0.1: it records each CONNECT target and pipes the bytes through. */
async function startTunnelProxy() {
  const seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(405).end('only CONNECT');
  });
  proxy.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const target = new URL(`http://${req.url}`);
    const upstream = net.connect(Number(target.port), target.hostname.replace(/^\[|\]$/g, ''), () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const url = await listen(proxy);
  return {
    url,
    seen,
    close: () => {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}

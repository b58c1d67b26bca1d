import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestListener } from '@/scripts/request-listener.mjs';
import { type CapturedLog, captureLog } from '@/server/testing/captured-log';
import { logContext, logFor, requestIdFrom, withLogContext } from './index';

let captured: CapturedLog | undefined;
afterEach(() => captured?.restore());

const log = logFor('test-area');

describe('the logger', () => {
  it('writes JSON lines with level, time, msg, area, and the request id of the context', () => {
    captured = captureLog();
    withLogContext({ requestId: 'req-123' }, () => log.info({ clientId: 7 }, 'something happened'));
    log.warn('outside any request');
    const [inside, outside] = captured.lines();
    expect(inside).toMatchObject({
      level: 'info',
      msg: 'something happened',
      area: 'test-area',
      requestId: 'req-123',
      clientId: 7,
    });
    expect(new Date(inside.time as string).toISOString()).toBe(inside.time);
    expect(outside).toMatchObject({ level: 'warn', msg: 'outside any request' });
    expect(outside).not.toHaveProperty('requestId');
  });

  it('keeps the context across awaits, and adds a job to the request it came from', async () => {
    captured = captureLog();
    await withLogContext({ requestId: 'req-a' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await withLogContext({ jobId: 'job-1' }, async () => log.info('in the job'));
    });
    expect(captured.lines()[0]).toMatchObject({ requestId: 'req-a', jobId: 'job-1' });
    expect(logContext()).toBeUndefined();
  });

  it('writes the lines at or above BLOCKBOT_LOG_LEVEL, and none when silent', () => {
    captured = captureLog();
    log.debug('a detail');
    log.info('news');
    expect(captured.lines().map((l) => l.msg)).toEqual(['news']);
    captured.restore();

    captured = captureLog({ BLOCKBOT_LOG_LEVEL: 'debug' });
    log.trace('finer');
    log.debug('a detail');
    expect(captured.lines().map((l) => [l.level, l.msg])).toEqual([['debug', 'a detail']]);
    captured.restore();

    captured = captureLog({ BLOCKBOT_LOG_LEVEL: 'silent' });
    log.fatal('nothing');
    expect(captured.text()).toBe('');
    captured.restore();

    captured = captureLog({ BLOCKBOT_LOG_LEVEL: 'error' });
    log.warn('not this');
    log.error('this');
    expect(captured.lines().map((l) => l.msg)).toEqual(['this']);
  });

  it('redacts fields named like secrets or message text, should one be handed to it', () => {
    captured = captureLog();
    log.info(
      { token: 'tok-1', apiKey: 'key-1', headers: { authorization: 'Bearer x-1' }, call: { text: 'hi-1' } },
      'redacted',
    );
    const text = captured.text();
    for (const secret of ['tok-1', 'key-1', 'x-1', 'hi-1']) expect(text).not.toContain(secret);
    expect(captured.lines()[0]).toMatchObject({ token: '[redacted]', call: { text: '[redacted]' } });
  });

  it("logs errors with their stack, but a database client's error without the values its message quotes", async () => {
    const { Prisma } = await import('@/server/db/generated/client');
    captured = captureLog();
    log.error({ err: new Error('plain failure') }, 'failed');
    const quoting = new Prisma.PrismaClientValidationError(
      'Invalid invocation: { text: "a client wrote this" }',
      {
        clientVersion: '7',
      },
    );
    log.error({ err: quoting }, 'failed');
    const [plain, database] = captured.lines() as { err: Record<string, string> }[];
    expect(plain.err).toMatchObject({
      type: 'Error',
      message: 'plain failure',
      stack: expect.stringContaining(' at '),
    });
    expect(database.err).toMatchObject({
      type: 'PrismaClientValidationError',
      stack: expect.stringContaining(' at '),
    });
    expect(captured.text()).not.toContain('a client wrote this');
  });
});

describe('request ids', () => {
  it("keep a caller's short token and replace anything else", () => {
    expect(requestIdFrom('lb-7f3a.9')).toBe('lb-7f3a.9');
    for (const unsafe of [undefined, '', 'a b', 'x'.repeat(129), 'new\nline', '{"json":1}'])
      expect(requestIdFrom(unsafe)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(['first-id', 'second'])).toBe('first-id');
  });

  it('are set where the production server takes a request, answered in X-Request-Id and logged', async () => {
    captured = captureLog();
    const server = http.createServer(
      createRequestListener((_req, res) => {
        log.info('handled');
        res.end('ok');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
    try {
      const fresh = await fetch(url);
      const kept = await fetch(url, { headers: { 'X-Request-Id': 'from-the-proxy-1' } });
      expect(kept.headers.get('x-request-id')).toBe('from-the-proxy-1');
      const id = fresh.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(captured.lines().map((l) => l.requestId)).toEqual([id, 'from-the-proxy-1']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { resetEnvCache } from '@/server/config/env';
import { closeDb, getDb } from '@/server/db';
import { createServerDatabase, dropServerDatabase } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { stopBoss } from '@/server/jobs/boss';
import { metrics } from '@/server/metrics/metrics';
import { parseScrape, scrape } from '@/server/metrics/testing/scrape';
import { createProject } from '@/server/projects/project-service';
import { cuttableProxy } from '@/server/testing/cuttable-proxy';
import { saveNotingBot } from '@/server/testing/noting-bot';
import { startRecordingReceiver } from '@/server/testing/recording-receiver';
import { waitFor } from '@/server/testing/wait-for';

// `npm run worker` is for server mode: these run where TEST_DATABASE_URL names a PostgreSQL server.
const serverUrl = process.env.TEST_DATABASE_URL;
const TOKEN = 'worker-metrics-token-0123456789';

let url = '';
let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
let worker: ChildProcess;
let workerOutput = '';
let base = '';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function get(pathname: string) {
  const response = await fetch(`${base}${pathname}`).catch(() => null);
  return response && { status: response.status, body: await response.json() };
}

describe.skipIf(!serverUrl)('npm run worker: its health, readiness and metrics on a port of its own', () => {
  beforeAll(async () => {
    url = await createServerDatabase(serverUrl ?? '');
    // The worker reaches the database through a proxy the test cuts: a database that stops.
    proxy = await cuttableProxy(Number(new URL(url).port || 5432));
    const proxied = new URL(url);
    proxied.host = new URL(proxy.origin).host;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    worker = spawn(path.resolve('node_modules/.bin/tsx'), ['server/worker.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: proxied.toString(),
        BLOCKBOT_WORKER_PORT: String(port),
        BLOCKBOT_AUTH_SECRET: 'test-secret-'.padEnd(40, 'x'),
        BLOCKBOT_ENCRYPTION_KEY: 'ab'.repeat(32),
        BLOCKBOT_METRICS_TOKEN: TOKEN,
        BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
        BLOCKBOT_SHUTDOWN_DELAY_SECONDS: '5',
      },
    });
    worker.stdout?.on('data', (d) => {
      workerOutput += d;
    });
    worker.stderr?.on('data', (d) => {
      workerOutput += d;
    });
    await waitFor(
      async () => worker.exitCode === null && (await get('/api/ready'))?.status === 200,
      `the worker to be ready:\n${workerOutput}`,
      120_000,
    );
    // This process runs the engine on the same database, directly, as a web server would.
    process.env.DATABASE_URL = url;
    process.env.BLOCKBOT_AUTH_SECRET = 'test-secret-'.padEnd(40, 'x');
    process.env.BLOCKBOT_ENCRYPTION_KEY = 'ab'.repeat(32);
    resetEnvCache();
  }, 180_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await stopBoss();
    await closeDb();
    await proxy?.close();
    if (url) await dropServerDatabase(serverUrl ?? '', url);
  });

  it('is ready with its job workers polling, and each process exports its own counts, which add up', async () => {
    const ready = await get('/api/ready');
    expect(ready?.body).toMatchObject({
      role: 'worker',
      checks: { database: { ok: true }, migrations: { ok: true }, worker: { ok: true } },
    });

    const db = await getDb();
    const receiver = await startRecordingReceiver();
    try {
      const project = await createProject(db, { name: 'Two processes', plan: 'business' });
      await db.project.update({
        where: { id: project.id },
        data: { webhookUrl: receiver.url, webhookTestConversations: true },
      });
      await saveNotingBot(db, project.id);
      const here = parseScrape(await metrics().registry.metrics());
      const deps = await getEngineDeps();
      for (let i = 0; i < 10; i++)
        await handleEvent(
          deps,
          project.id,
          { ref: simulatorClientRef('visitor', 'Visitor') },
          {
            type: 'message',
            text: `message ${i}`,
          },
        );
      // Each message in and each answer out is delivered by the worker.
      await waitFor(async () => receiver.received.length >= 20, 'the worker to deliver 20 webhooks', 60_000);

      const web = parseScrape(await metrics().registry.metrics());
      const inWorker = await scrape(`${base}/api/metrics`, TOKEN);
      const received = { channel: 'simulator', outcome: 'handled' };
      const delivered = { outcome: 'delivered' };
      // This process took the messages; the worker delivered their webhooks.
      expect(
        web.value('blockbot_messages_received_total', received) -
          here.value('blockbot_messages_received_total', received),
      ).toBe(10);
      expect(inWorker.value('blockbot_messages_received_total', received)).toBe(0);
      expect(inWorker.value('blockbot_webhook_deliveries_total', delivered)).toBe(20);
      expect(web.value('blockbot_webhook_deliveries_total', delivered)).toBe(0);
      expect(inWorker.count('blockbot_webhook_delivery_lag_seconds')).toBe(20);
    } finally {
      receiver.close();
    }
  }, 120_000);

  it('turns not ready while its database is away, health still answering, and ready again once it is back', async () => {
    proxy.cut();
    const away = await waitFor(
      async () => {
        const r = await get('/api/ready');
        return r?.status === 503 && r.body.checks.database.ok === false && r;
      },
      'ready to answer 503',
      30_000,
    );
    expect(away.body.status).toBe('not ready');
    expect(away.body.notReady[0]).toMatch(/^database: does not answer/);
    expect((await get('/api/health'))?.status).toBe(200);

    proxy.restore();
    const back = await waitFor(
      async () => {
        const r = await get('/api/ready');
        return r?.status === 200 && r;
      },
      `ready to answer 200 again:\n${workerOutput.slice(-2000)}`,
      60_000,
    );
    expect(back.body.checks).toMatchObject({ database: { ok: true }, worker: { ok: true } });
  }, 120_000);

  it('on SIGTERM turns not ready first, health still answering, then finishes and exits', async () => {
    // A webhook delivery the worker is sending when it is told to stop, answered only once the
    // test has seen the 503: the worker finishes what it has in hand, so it cannot be gone
    // before the test asks, however slow the machine.
    const requests: http.ServerResponse[] = [];
    let answering = false;
    const held = http.createServer((req, res) => {
      req.resume();
      if (answering) res.end('ok');
      else requests.push(res);
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    try {
      const db = await getDb();
      const project = await createProject(db, { name: 'Stopping', plan: 'business' });
      await db.project.update({
        where: { id: project.id },
        data: {
          webhookUrl: `http://127.0.0.1:${(held.address() as net.AddressInfo).port}/hook`,
          webhookTestConversations: true,
        },
      });
      await saveNotingBot(db, project.id);
      await handleEvent(
        await getEngineDeps(),
        project.id,
        { ref: simulatorClientRef('visitor', 'Stopping visitor') },
        { type: 'message', text: 'in flight' },
      );
      await waitFor(async () => requests.length > 0, 'the worker to send a webhook', 60_000);

      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      const stopping = await waitFor(
        async () => {
          const r = await get('/api/ready');
          return r?.status === 503 && r;
        },
        `ready to answer 503 after SIGTERM:\n${workerOutput.slice(-2000)}`,
        30_000,
      );
      expect(stopping.body.notReady).toContain(
        'shutdown: shutting down (SIGTERM): finishing the requests and jobs in flight',
      );
      expect((await get('/api/health'))?.status).toBe(200);
      answering = true;
      for (const res of requests) res.end('ok');
      const [code] = await exited;
      expect(code, workerOutput.slice(-2000)).toBe(0);
    } finally {
      held.closeAllConnections();
      held.close();
    }
  }, 60_000);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as healthRoute from '@/app/api/health/route';
import * as readyRoute from '@/app/api/ready/route';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { readMigrations } from '@/server/db/migration-files';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { defineJob, startWorkers } from '@/server/jobs/jobs';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { healthState } from './health-state';
import { checkReadiness } from './readiness';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-ready-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: RouteServer;

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  server = await serveRoutes([
    { method: 'GET', pattern: /^\/api\/health$/, handler: healthRoute.GET },
    { method: 'GET', pattern: /^\/api\/ready$/, handler: readyRoute.GET },
  ]);
  Object.assign(healthState(), { role: 'web', runsJobs: false, stopping: false });
});
afterAll(async () => {
  server?.close();
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function ready() {
  const response = await fetch(`${server.url}/api/ready`);
  return { status: response.status, body: await response.json() };
}

describe('/api/health and /api/ready of the web server', () => {
  it('answers health at once, and ready once the database answers with every migration applied', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', role: 'web' });
    const { status, body } = await ready();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'ready',
      ready: true,
      role: 'web',
      notReady: [],
      checks: {
        shutdown: { ok: true },
        database: { ok: true },
        migrations: { ok: true, detail: `all ${readMigrations().length} applied` },
      },
    });
    // This process runs no jobs: no worker check.
    expect(body.checks.worker).toBeUndefined();
  });

  it('is not ready on a database that lacks a migration this code needs, and names it', async () => {
    const newest = readMigrations().at(-1)?.name ?? '';
    const [row] = await db.$queryRawUnsafe<{ id: string }[]>(
      'SELECT id FROM "_prisma_migrations" WHERE migration_name = $1',
      newest,
    );
    await db.$executeRawUnsafe(
      'UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1',
      row.id,
    );
    try {
      const { status, body } = await ready();
      expect(status).toBe(503);
      expect(body.status).toBe('not ready');
      expect(body.notReady).toEqual([`migrations: 1 not applied: ${newest}`]);
    } finally {
      await db.$executeRawUnsafe(
        'UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE id = $1',
        row.id,
      );
    }
    expect((await ready()).status).toBe(200);
  });

  it('turns not ready from the SIGTERM on, while health still answers', async () => {
    healthState().stopping = true;
    try {
      const { status, body } = await ready();
      expect(status).toBe(503);
      expect(body.notReady).toEqual([
        'shutdown: shutting down (SIGTERM): finishing the requests and jobs in flight',
      ]);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      healthState().stopping = false;
    }
  });

  it('where it runs jobs, is ready while its job workers poll and not once one stopped polling', async () => {
    await startWorkers([
      defineJob<object>({ name: 'ready-test.idle', handle: async () => {}, pollingIntervalSeconds: 0.5 }),
    ]);
    healthState().runsJobs = true;
    try {
      const now = await checkReadiness();
      expect(now.checks.worker).toMatchObject({ ok: true });
      expect(now.checks.worker.detail).toMatch(/^\d+ job workers polling$/);
      // The same workers seen from 10 minutes on: none polled since.
      const later = await checkReadiness(Date.now() + 600_000);
      expect(later.ready).toBe(false);
      expect(later.notReady).toEqual([
        expect.stringMatching(
          /^worker: job workers have not polled their queues: ready-test\.idle \(\d+ s ago\)/,
        ),
      ]);
    } finally {
      healthState().runsJobs = false;
    }
  });
});

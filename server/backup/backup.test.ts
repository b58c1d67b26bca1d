import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as backupRoute from '@/app/api/backup/route';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import { resetEnvCache } from '@/server/config/env';
import { closeDb, embeddedDatabaseDir, getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { openDatabase } from '@/server/db/database';
import { seedDataDir } from '@/server/db/test-support';
import { getEngineDeps } from '@/server/engine/engine';
import { handleEvent } from '@/server/engine/handle-event';
import { stopBoss } from '@/server/jobs/boss';
import { createProject } from '@/server/projects/project-service';
import { loadSecrets, setSecret } from '@/server/secrets/secret-service';
import { saveNotingBot } from '@/server/testing/noting-bot';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { runTsx } from '@/server/testing/run-tsx';

// Backups are the embedded database's (server mode uses pg_dump): the PostgreSQL run has nothing more to test.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-backup-'));
const source = path.join(tmp, 'source');
const fresh = path.join(tmp, 'fresh');
let server: RouteServer;
let projectId: number;

const cli = (dataDir: string, ...args: string[]) =>
  runTsx('cli/main.ts', args, { BLOCKBOT_DATA_DIR: dataDir, DATABASE_URL: '' }, { timeoutMs: 120_000 });

/** What a restored instance must have the same of: counts, and one conversation in order. */
async function contents(db: PrismaClient) {
  const client = await db.client.findFirstOrThrow({ where: { projectId }, orderBy: { id: 'asc' } });
  const history = await db.message.findMany({
    where: { clientId: client.id },
    orderBy: { id: 'asc' },
    select: { direction: true, text: true },
  });
  return {
    projects: await db.project.count(),
    clients: await db.client.count(),
    messages: await db.message.count(),
    history,
    secrets: Object.fromEntries(await loadSecrets(db, projectId)),
  };
}

async function openFresh<T>(read: (db: PrismaClient) => Promise<T>): Promise<T> {
  const database = await openDatabase({ mode: 'embedded', dataDir: embeddedDatabaseDir(fresh) });
  try {
    return await read(database.prisma);
  } finally {
    await database.close();
  }
}

let before: Awaited<ReturnType<typeof contents>>;

describe.skipIf(process.env.TEST_DATABASE_URL)('blockbot backup and blockbot restore', () => {
  beforeAll(async () => {
    await seedDataDir(source);
    // This process is the running server: it holds the source's database open.
    delete process.env.DATABASE_URL;
    process.env.BLOCKBOT_DATA_DIR = source;
    resetEnvCache();
    const db = await getDb();
    const project = await createProject(db, { name: 'Kept', owner: { email: 'owner@example.com' } });
    projectId = project.id;
    await saveNotingBot(db, projectId);
    // Sealed with the data directory's generated key: a restore without it could not read this.
    await setSecret(db, projectId, 'CRM_TOKEN', 'crm-secret-value');
    const deps = await getEngineDeps();
    for (const text of ['first', 'second', 'third'])
      await handleEvent(
        deps,
        projectId,
        { ref: simulatorClientRef('ada', 'Ada') },
        { type: 'message', text },
      );
    before = await contents(db);
    server = await serveRoutes([{ method: 'POST', pattern: /^\/api\/backup$/, handler: backupRoute.POST }]);
  }, 120_000);

  afterAll(async () => {
    server?.close();
    await stopBoss();
    await closeDb();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('backs up while the server runs (the server takes it) and restores into a fresh data directory the same instance', async () => {
    const file = path.join(tmp, 'running.tar');
    const backup = await cli(source, 'backup', file, '--url', server.url);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`taken by the running server, pid ${process.pid}`);
    expect(backup.stdout).toContain('1 projects, 1 clients, 6 messages');

    const restore = await cli(fresh, 'restore', file);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Restored ${file} into ${fresh}: 1 projects, 1 clients, 6 messages`);
    expect(await openFresh(contents)).toEqual(before);
    expect(before.history.map((m) => m.text)).toEqual([
      'first',
      'Noted first',
      'second',
      'Noted second',
      'third',
      'Noted third',
    ]);
    for (const name of ['secrets.json', 'encryption-key'])
      expect(fs.readFileSync(path.join(fresh, name), 'utf8')).toBe(
        fs.readFileSync(path.join(source, name), 'utf8'),
      );
  }, 240_000);

  it("refuses a backup to whoever lacks the data directory's secret", async () => {
    const response = await fetch(`${server.url}/api/backup`, {
      method: 'POST',
      headers: { authorization: 'Bearer guessed' },
    });
    expect(response.status).toBe(401);
  });

  it('refuses to restore over a running server, and a file that is no backup, leaving the data directory as it was', async () => {
    const holding = await openDatabase({ mode: 'embedded', dataDir: embeddedDatabaseDir(fresh) });
    try {
      const refused = await cli(fresh, 'restore', path.join(tmp, 'running.tar'));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is open in another process \(pid \d+\).*stop it first/);
    } finally {
      await holding.close();
    }
    const junk = path.join(tmp, 'junk.tar');
    fs.writeFileSync(junk, 'not a tar file at all');
    const broken = await cli(fresh, 'restore', junk);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${junk} is not a Blockbot backup`);
    expect(fs.readdirSync(fresh).filter((name) => name.startsWith('before-restore'))).toEqual([]);
    expect(await openFresh(contents)).toEqual(before);
  }, 120_000);

  it('backs up a stopped instance itself, and a restore over data moves that data aside', async () => {
    await stopBoss();
    await closeDb();
    const file = path.join(tmp, 'stopped.tar');
    const backup = await cli(source, 'backup', file);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).not.toContain('running server');
    const restore = await cli(fresh, 'restore', file);
    expect(restore.code, restore.stderr).toBe(0);
    const aside = /What the data directory held before is in (\S+)\.$/.exec(restore.stdout.trim())?.[1] ?? '';
    expect(fs.readdirSync(aside).sort()).toEqual(['encryption-key', 'pglite', 'secrets.json']);
    expect(await openFresh(contents)).toEqual(before);
  }, 240_000);

  it('sends server mode to pg_dump', async () => {
    const result = await runTsx('cli/main.ts', ['backup', path.join(tmp, 'x.tar')], {
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('back it up with pg_dump');
  });
});

/**
 * Part of `npm run bench -- knowledge` (issue 35's event model): another project's
 * get_variables while 50 clients of an AI project wait on a provider that never answers. Project
 * B's get_variables is timed alone, then with 50 AI calls hanging (each event holds its client's
 * lease, no connection and no transaction). One process serves both over real HTTP, as
 * `npm start` does; on PGlite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * names a server. Prints figures; never fails on time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { saveProvider } from '../server/ai/ai-settings';
import { startFakeOpenAi } from '../server/ai/testing/fake-openai';
import { resetEnvCache } from '../server/config/env';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createApiKey } from '../server/projects/api-keys';
import { createProject } from '../server/projects/project-service';
import { setSecret } from '../server/secrets/secret-service';
import { waitFor } from '../server/testing/wait-for';
import { saveAndPublish } from '../server/versions/bot-versions';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CALLERS = 4;
const HANGING = 50;

interface Figures {
  calls: number;
  p50: number;
  p99: number;
  errors: number;
}

async function timeGetVariables(url: string): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        const response = await fetch(url).catch(() => null);
        if (!response?.ok) errors++;
        await response?.arrayBuffer();
        latencies.push(performance.now() - start);
      }
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { calls: sorted.length, p50: p(0.5), p99: p(0.99), errors };
}

async function measure(label: string) {
  const { getDb } = await import('../server/db');
  const { startApiServer } = await import('../server/public-api/testing/api-server');
  const db = await getDb();
  const fake = await startFakeOpenAi();
  const api = await startApiServer();
  try {
    const quiet = await createProject(db, { name: 'B: quiet', plan: 'business' });
    const quietKey = (await createApiKey(db, quiet.id, { name: 'bench' })).key;
    const client = await db.client.create({
      data: { projectId: quiet.id, platformId: 'b', clientType: 99, groupId: 'sim' },
    });
    const getVariables = `${api.url}/api/${quietKey}/get_variables?client_id=${client.id}`;

    const ai = await createProject(db, { name: 'A: AI', plan: 'ai' });
    await setSecret(db, ai.id, 'OPENAI_KEY', fake.apiKey);
    await saveProvider(db, ai.id, null, {
      name: 'fake',
      baseUrl: fake.url,
      chatModel: 'gpt-4o-mini',
      apiKeySecret: 'OPENAI_KEY',
      timeoutSeconds: 100,
    });
    await saveAndPublish(db, ai.id, {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'start', text: 'hi', trigger: { alternatives: '' } },
        { id: 2, kind: 'state', text: '', ai: { prompt: 'Answer: #{question}' } },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'continue' }],
    });
    const aiKey = (await createApiKey(db, ai.id, { name: 'bench' })).key;
    const waiting = await Promise.all(
      Array.from({ length: HANGING }, (_, i) =>
        db.client.create({ data: { projectId: ai.id, platformId: `a${i}`, clientType: 99, groupId: 'sim' } }),
      ),
    );

    await timeGetVariables(getVariables); // warm-up, unreported
    const alone = await timeGetVariables(getVariables);

    fake.next(...Array.from({ length: HANGING }, () => ({ hang: true as const })));
    const calls = waiting.map((c) =>
      fetch(`${api.url}/api/${aiKey}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: c.id, message: 'hello' }),
      })
        .then((r) => r.arrayBuffer())
        .catch(() => {}),
    );
    await waitFor(async () => fake.open() >= HANGING, `${HANGING} AI calls hanging`, 60_000);
    const beside = await timeGetVariables(getVariables);
    const stillHanging = fake.open();
    await fake.close();
    await Promise.all(calls);

    const row = (name: string, f: Figures) =>
      console.log(
        `${`${label}: ${name}`.padEnd(58)} ${String(f.calls).padStart(6)} calls   p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   errors ${f.errors}`,
      );
    row("B's get_variables alone", alone);
    row(`B's get_variables while ${HANGING} AI calls of A hang`, beside);
    console.log(
      `${label}: p99 ${(beside.p99 / alone.p99).toFixed(2)}× alone; AI calls still hanging at the end: ${stillHanging}`,
    );
  } finally {
    await api.close();
    await fake.close().catch(() => {});
  }
}

export async function runAiHang(): Promise<void> {
  console.log(
    `\nAnother project's get_variables (${CALLERS} callers, ${SECONDS} s) while ${HANGING} AI calls hang:`,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-ai-hang-'));
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let url: string | undefined;
  if (serverUrl) url = await createServerDatabase(serverUrl);
  Object.assign(process.env, {
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
    BLOCKBOT_API_RATE_LIMIT: '100000000',
    ...(url
      ? {
          DATABASE_URL: url,
          BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
          BLOCKBOT_ENCRYPTION_KEY: 'ab'.repeat(32),
        }
      : { BLOCKBOT_DATA_DIR: path.join(tmp, 'data') }),
  });
  // The knowledge part before this one read the environment without a server database.
  resetEnvCache();
  const { closeDb } = await import('../server/db');
  try {
    await measure(url ? 'PostgreSQL' : 'PGlite');
  } finally {
    await closeDb();
    if (url && serverUrl) await dropServerDatabase(serverUrl, url).catch(() => {});
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- api`: autocannon against `next start` on PostgreSQL for get_variables and
 * callback at 50 connections, beside a bare node:http server doing the same database read with
 * `pg`, in the same run. Needs a build (`npm run build`). Prints figures; never fails on time.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { createApiKey } from '../server/api-keys/api-keys';
import { saveBotSchema } from '../server/bot-schema/bot-schema-store';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const PORT = 3300;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function load(url: string, options: Partial<autocannon.Options> = {}) {
  const result = await autocannon({ url, connections: 50, duration: SECONDS, ...options });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export async function run(): Promise<void> {
  const url = await createServerDatabase(serverUrl);
  const db = await openDatabase({ mode: 'server', url });
  const project = await createProject(db.prisma, { name: 'api bench', plan: 'business' });
  await saveBotSchema(db.prisma, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'ok', trigger: { alternatives: '' } }],
    arrows: [],
  });
  const key = (await createApiKey(db.prisma, project.id, { name: 'bench' })).key;
  const client = await db.prisma.client.create({
    data: { projectId: project.id, platformId: 'bench', clientType: 99, groupId: 'sim' },
  });
  const deal = await db.prisma.deal.create({ data: { projectId: project.id, clientId: client.id } });
  await db.prisma.dealVariable.create({
    data: { projectId: project.id, dealId: deal.id, name: 'order', value: 'A-1', valueKey: 'A-1' },
  });
  await db.close();

  const next = spawn(path.join('node_modules', '.bin', 'next'), ['start', '-p', String(PORT)], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
      BLOCKBOT_API_RATE_LIMIT: '100000000',
      NODE_ENV: 'production',
    },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 60; i++) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/sign-in`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const base = `http://127.0.0.1:${PORT}/api/${key}`;
    await fetch(`${base}/get_variables?client_id=${client.id}`);
    const getVariables = await load(`${base}/get_variables?client_id=${client.id}`);
    const callback = await load(`${base}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.id, message: 'hi' }),
    });

    // The same read with pg and node:http, nothing else.
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const bare = http.createServer(async (_req, res) => {
      const { rows } = await pool.query(
        `SELECT v.name, v.value FROM "DealVariable" v JOIN "Deal" d ON d.id = v."dealId" WHERE d."clientId" = $1 AND d."closedAt" IS NULL`,
        [client.id],
      );
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          status: 'success',
          variables: Object.fromEntries(rows.map((r) => [r.name, r.value])),
        }),
      );
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const baseline = await load(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`);
    bare.close();
    await pool.end();

    const row = (name: string, r: { rps: number; p99: number; errors: number }) =>
      console.log(
        `${name.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s   p99 ${r.p99} ms   errors ${r.errors}`,
      );
    row('get_variables (next start)', getVariables);
    row('callback (next start)', callback);
    row('baseline: node:http + pg', baseline);
    console.log(
      `get_variables / baseline: ${((getVariables.rps / baseline.rps) * 100).toFixed(0)} % (goal ≥ 50 %)`,
    );
  } finally {
    next.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await dropServerDatabase(serverUrl, url).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

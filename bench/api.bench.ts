/**
 * `npm run bench -- api`: autocannon against the production server (`npm start`, i.e.
 * scripts/start.mjs) on PostgreSQL for get_variables and callback at 50 connections, each beside
 * a bare node:http server doing the same database work with `pg` (bench/bare-api-server.mjs),
 * in the same run, with each server's CPU time per request (what a loaded machine changes least).
 * (Every call with a key now skips Next.js's router, a malformed key too, so
 * there is no "Next.js ceiling" left to measure on this path.)
 * Builds first when the build is stale (as `npm start` does). Prints figures; never fails on time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createApiKey } from '../server/projects/api-keys';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const PORT = 3300;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Figures {
  rps: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per answered request, in µs; null off Linux. */
  cpuPerRequest: number | null;
}

/** A process's CPU time so far (user + system), in µs, from /proc; null where there is none. */
function cpuTime(pid: number | undefined): number | null {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command's closing parenthesis.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ: /proc counts CPU time in these. */
const CLOCK_TICKS = 100;

/**
 * Load at 50 connections on `pid`'s server; any answer but a 200, and any connection error,
 * counts as an error. The CPU time per request is what a loaded machine changes least: it says
 * what each request costs the server, whatever the other processes took.
 */
async function load(pid: number | undefined, url: string, options: Partial<autocannon.Options> = {}) {
  const cpuBefore = cpuTime(pid);
  const result = await autocannon({ url, connections: 50, duration: SECONDS, ...options });
  const cpuAfter = cpuTime(pid);
  const expected = result.statusCodeStats?.['200']?.count ?? 0;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.requests.total - expected,
    cpuPerRequest:
      cpuBefore === null || cpuAfter === null || !expected ? null : (cpuAfter - cpuBefore) / expected,
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function run(): Promise<void> {
  const url = await createServerDatabase(serverUrl);
  const db = await openDatabase({ mode: 'server', url });
  const project = await createProject(db.prisma, { name: 'api bench', plan: 'business' });
  await saveAndPublish(db.prisma, project.id, {
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

  const app = spawn(process.execPath, [path.join('scripts', 'start.mjs'), '-p', String(PORT)], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
      BLOCKBOT_API_RATE_LIMIT: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const bare = spawn(process.execPath, [path.join('bench', 'bare-api-server.mjs'), url, String(project.id)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const barePort = String((await once(bare.stdout, 'data'))[0]).trim();
    for (let i = 0; i < 600; i++) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/sign-in`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const base = `http://127.0.0.1:${PORT}/api/${key}`;
    // The first call loads the route module, which hands the API to the server's fast path.
    await fetch(`${base}/get_variables?client_id=${client.id}`);
    const callbackBody = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.id, message: 'hi' }),
    };
    const actions = {
      get_variables: {
        app: () => load(app.pid, `${base}/get_variables?client_id=${client.id}`),
        bare: () => load(bare.pid, `http://127.0.0.1:${barePort}/get_variables?client_id=${client.id}`),
        goal: 0.8,
      },
      callback: {
        app: () => load(app.pid, `${base}/callback`, callbackBody),
        bare: () => load(bare.pid, `http://127.0.0.1:${barePort}/callback`, callbackBody),
        goal: 0.6,
      },
    };
    const row = (name: string, r: Figures) =>
      console.log(
        `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(6)} req/s   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}   CPU ${r.cpuPerRequest === null ? 'n/a' : `${r.cpuPerRequest.toFixed(0)} µs`}/req`,
      );
    const summaries: string[] = [];
    for (const [name, action] of Object.entries(actions)) {
      // Steady state is what counts: both servers first warm up (JIT, connection pools), unreported.
      await action.app();
      await action.bare();
      // The machine is shared: ours and the baseline alternate over several rounds, so a change
      // of load in between skews no single ratio for long; the median is reported.
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const appFirst = round % 2 === 1;
        const first = await (appFirst ? action.app() : action.bare());
        const second = await (appFirst ? action.bare() : action.app());
        const [ours, baseline] = appFirst ? [first, second] : [second, first];
        row(`round ${round}: ${name} (npm start)`, ours);
        row(`round ${round}: ${name} baseline, node:http + pg`, baseline);
        ratios.push(ours.rps / baseline.rps);
        if (ours.cpuPerRequest !== null && baseline.cpuPerRequest !== null)
          cpuRatios.push(ours.cpuPerRequest / baseline.cpuPerRequest);
      }
      summaries.push(
        `${name} / baseline: ${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}; median ${(median(ratios) * 100).toFixed(0)} % (goal ≥ ${action.goal * 100} %)`,
      );
      if (cpuRatios.length)
        summaries.push(`${name}: CPU per request, ours ÷ baseline: median ${median(cpuRatios).toFixed(2)}×`);
    }
    for (const summary of summaries) console.log(summary);
  } finally {
    await Promise.all([stop(app), stop(bare)]);
    await dropServerDatabase(serverUrl, url).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

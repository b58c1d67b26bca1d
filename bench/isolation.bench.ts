/**
 * `npm run bench -- isolation`: does one project's hostile bot delay another project's API
 * calls? Project B's get_variables is timed alone, then while project A's clients are driven
 * through the API (callback) into a bot that loops through 0-second timers, sends requests to a
 * slow local server from every block and runs a CPU-heavy formula. One process serves both,
 * over real HTTP, as `npm start` does; on PGlite (in memory), and on PostgreSQL when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL names a server. Prints figures; never fails on time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { createApiKey } from '../server/projects/api-keys';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';
import { figuresRow, onAppDatabase, quietProject, timeGetVariables } from './get-variables-load';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Concurrent get_variables callers of project B, and hostile clients of project A. */
const CALLERS = 4;
const HOSTILE_CLIENTS = 4;
/** How long the slow third party takes to answer each request. */
const SLOW_MS = 100;

/** A third party that answers every request after SLOW_MS. */
async function startSlowServer() {
  const server = http.createServer((_req, res) => {
    setTimeout(() => res.end('{"ok": true}'), SLOW_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sorting, serialising and hashing a list of a thousand texts, over and over. */
const WORDS = Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 1000).toString(36)).join(',');
const CPU_FORMULA = [
  `items = split('${WORDS}', ',')`,
  ...Array.from({ length: 40 }, (_, i) => `s${i} = sha256(to_json(sort(items)) + '${i}')`),
].join('\n');

function hostileBot(slowUrl: string) {
  const requests = Array.from({ length: 5 }, (_, i) => `r${i} = requests_get('${slowUrl}/${i}', 'status')`);
  const looping = (id: number, to: number) => ({
    id,
    kind: 'not_state' as const,
    text: 'again',
    formula: [...requests, CPU_FORMULA].join('\n'),
    request: { type: 'GET' as const, url: `${slowUrl}/block` },
    to,
  });
  const blocks = [looping(2, 3), looping(3, 2)];
  return {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start' as const, text: 'hi', trigger: { alternatives: '' } },
      ...blocks.map(({ to: _, ...block }) => block),
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'unconditional' as const },
      ...blocks.map((b, i) => ({
        id: i + 2,
        from: b.id,
        to: b.to,
        kind: 'timer' as const,
        timer: { delay: 0 },
      })),
    ],
  };
}

/** Project B's get_variables alone, then beside project A's hostile bot, on the app database. */
async function measure(label: string) {
  const { getDb } = await import('../server/db');
  const { startApiServer } = await import('../server/public-api/testing/api-server');
  const db = await getDb();
  const slow = await startSlowServer();
  const api = await startApiServer();
  try {
    const { project: quiet, client, getVariables } = await quietProject(db, api.url);
    const deal = await db.deal.create({ data: { projectId: quiet.id, clientId: client.id } });
    await db.dealVariable.create({
      data: { projectId: quiet.id, dealId: deal.id, name: 'order', value: 'A-1', valueKey: 'A-1' },
    });

    const hostile = await createProject(db, { name: 'A: hostile', plan: 'business' });
    await saveAndPublish(db, hostile.id, hostileBot(slow.url));
    const hostileKey = (await createApiKey(db, hostile.id, { name: 'bench' })).key;
    const victims = await Promise.all(
      Array.from({ length: HOSTILE_CLIENTS }, (_, i) =>
        db.client.create({
          data: { projectId: hostile.id, platformId: `a${i}`, clientType: 99, groupId: 'sim' },
        }),
      ),
    );

    await timeGetVariables(getVariables, CALLERS, SECONDS); // warm-up, unreported
    const alone = await timeGetVariables(getVariables, CALLERS, SECONDS);

    let running = true;
    let events = 0;
    const attack = Promise.all(
      victims.map(async (victim) => {
        while (running) {
          await fetch(`${api.url}/api/${hostileKey}/callback`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ client_id: victim.id, message: 'go' }),
          })
            .then((r) => r.arrayBuffer())
            .catch(() => {});
          events++;
        }
      }),
    );
    const beside = await timeGetVariables(getVariables, CALLERS, SECONDS);
    running = false;
    await attack;

    figuresRow(label, "B's get_variables alone", alone);
    figuresRow(label, "B's get_variables beside A's hostile bot", beside);
    console.log(
      `${label}: p99 ${(beside.p99 / alone.p99).toFixed(1)}× alone; A's API calls finished meanwhile: ${events}`,
    );
  } finally {
    await api.close();
    await slow.close();
  }
}

export async function run(): Promise<void> {
  console.log(
    `${CALLERS} get_variables callers for ${SECONDS} s; ${HOSTILE_CLIENTS} hostile clients, each event a 0-second timer loop with requests answered in ${SLOW_MS} ms and a CPU-heavy formula`,
  );
  await onAppDatabase(measure);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

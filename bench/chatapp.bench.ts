/**
 * `npm run bench -- chatapp`: the chat-app channel (the WhatsApp Cloud API) on PostgreSQL
 * (BENCH_DATABASE_URL, default the local server), against the fake Cloud API.
 *
 * 1. Throughput: 50 clients at once, each sending a message to the number's webhook (signed
 *    with the app secret, over HTTP, as Meta does) and waiting for the bot's answer to arrive
 *    at the fake Graph API before sending the next. Our channel (the webhook route → the
 *    stored update → the engine → the adapter) beside a bare node:http + pg handler in the same
 *    process that checks the signature, stores the same rows (the update, the client, the
 *    message in and out) and answers through the same API. The fake has no limits and our
 *    number's pacing is lifted, so both are measured rather than the 80 messages a second.
 *    Rounds alternate after a warm-up of each (BENCH_MESSAGES a client a round, BENCH_ROUNDS
 *    rounds); the load runs in this process. Goal: ours at 60 % of the bare handler or more.
 *    Then the same rounds from first contacts (every message from a number never seen, so its
 *    client is created first). Goal: ours at 50 % of its known-client rate or more.
 * 2. Latency at a pace (open loop): BENCH_CHATAPP_PACE messages a second (default 30) over the
 *    50 clients for BENCH_CHATAPP_PACED_SECONDS (default 10), each timed from when it was due.
 *
 * Prints figures; never fails on time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import {
  type FakeCloudApi,
  type FakeNumber,
  startFakeCloudApi,
} from '../server/channels/chatapp/testing/fake-cloud-api';
import { serveChannelRoutes } from '../server/channels/testing/channel-routes';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';
import type { RouteServer } from '../server/testing/route-server';
import { saveAndPublish } from '../server/versions/bot-versions';
import { Tally } from './tally';
import { AnswerWaiter, answerKey, answerText, closedLoopRound } from './tg-load';

const CLIENTS = 50;
const MESSAGES_PER_CLIENT = Number(process.env.BENCH_MESSAGES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PACE = Number(process.env.BENCH_CHATAPP_PACE ?? 30);
const PACED_SECONDS = Number(process.env.BENCH_CHATAPP_PACED_SECONDS ?? 10);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

const waiter = new AnswerWaiter();
let roundNo = 0;

/** The answers arriving at the fake: one listener for every awaited one. */
function listenForAnswers(fake: FakeCloudApi) {
  return fake.onCall((call) => {
    const body = call.body as { type?: string; to?: string; text?: { body?: string } } | undefined;
    if (body?.type === 'text') waiter.arrived(answerKey(body.to, body.text?.body));
  });
}

/** One client's message to the number's webhook; resolves with when its answer reached the fake. */
async function sendAndAwaitAnswer(fake: FakeCloudApi, n: FakeNumber, client: string, text: string) {
  const answered = waiter.expect(answerKey(client, answerText(text)));
  const posted = await fake.sendInbound(n.phoneNumberId, {
    from: client,
    name: 'Bench',
    id: `wamid.${text}.${client}`,
    type: 'text',
    text,
  });
  if (posted.status !== 200) throw new Error(`the webhook answered ${posted.status}: ${posted.body}`);
  return answered;
}

const clientOf = (c: number) => `4470090${String(10000 + c)}`;
/** A number nobody used before: in a first-contact round every message comes from a new client. */
const newClientOf = (r: number, c: number, i: number) =>
  `4471${String(r).padStart(3, '0')}${String(c).padStart(2, '0')}${String(i).padStart(4, '0')}`;

async function round(fake: FakeCloudApi, n: FakeNumber, tally: Tally, firstContacts = false) {
  const r = roundNo++;
  const tag = `r${r}m`;
  const cpu = process.cpuUsage();
  const figures = await closedLoopRound(CLIENTS, MESSAGES_PER_CLIENT, (c, i) =>
    sendAndAwaitAnswer(fake, n, firstContacts ? newClientOf(r, c, i) : clientOf(c), `${tag}${i}`),
  );
  const used = process.cpuUsage(cpu);
  tally.add(figures, (used.user + used.system) / 1000);
}

async function paced(fake: FakeCloudApi, n: FakeNumber, tally: Tally) {
  const r = roundNo++;
  const count = Math.round(PACE * PACED_SECONDS);
  const start = performance.now();
  const latencies: number[] = [];
  const answers: Promise<void>[] = [];
  for (let k = 0; k < count; k++) {
    const due = start + (k * 1000) / PACE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(
      sendAndAwaitAnswer(fake, n, clientOf(k % CLIENTS), `p${r}k${k}`).then((at) => {
        latencies.push(at - due);
      }),
    );
  }
  await Promise.all(answers);
  tally.add({ latencies, ms: performance.now() - start }, 0);
}

/** Our webhook route over real HTTP, as Next.js hands it a Request. */
async function serveWebhook(): Promise<RouteServer> {
  return serveChannelRoutes();
}

/** A bare node:http + pg handler: the signature, the same rows, the same answer through the API. */
async function bareHandler(
  fake: FakeCloudApi,
  n: FakeNumber,
  pool: pg.Pool,
  channelId: number,
  projectId: number,
) {
  const verifyToken = randomBytes(16).toString('hex');
  /** Messages still being answered: the pool outlives them. */
  const pending = new Set<Promise<void>>();
  const messagesUrl = `${fake.url}/${fake.version}/${n.phoneNumberId}/messages`;
  async function handle(body: Buffer) {
    const value = JSON.parse(body.toString('utf8')).entry[0].changes[0].value;
    const m = value.messages[0];
    const stored = await pool.query(
      `INSERT INTO "ChannelUpdate" ("channelId", "externalId", "updateId", chat, payload) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id`,
      [channelId, m.id, m.timestamp, m.from, JSON.stringify(m)],
    );
    if (!stored.rows.length) return;
    return async () => {
      const client = await pool.query(
        `INSERT INTO "Client" ("projectId", "platformId", "groupId", "clientType", name, "updatedAt", "lastMessageAt")
         VALUES ($1, $2, $3, 6, $4, now(), now())
         ON CONFLICT ("projectId", "clientType", "groupId", "platformId")
         DO UPDATE SET "lastMessageAt" = now(), "updatedAt" = now() RETURNING id`,
        [projectId, m.from, n.displayPhoneNumber, value.contacts[0].profile.name],
      );
      const clientId = client.rows[0].id;
      await pool.query(
        `INSERT INTO "Message" ("projectId", "clientId", direction, text) VALUES ($1, $2, 'in', $3)`,
        [projectId, clientId, m.text.body],
      );
      const reply = answerText(m.text.body);
      const sent = await fetch(messagesUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${n.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to: m.from,
          type: 'text',
          text: { body: reply },
        }),
      });
      const wamid = ((await sent.json()) as { messages: { id: string }[] }).messages[0].id;
      await pool.query(
        `INSERT INTO "Message" ("projectId", "clientId", direction, text, "externalId", status) VALUES ($1, $2, 'out', $3, $4, 'sent')`,
        [projectId, clientId, reply, wamid],
      );
      await pool.query(`UPDATE "Client" SET "currentBlockId" = 1 WHERE id = $1`, [clientId]);
      await pool.query(`UPDATE "ChannelUpdate" SET "processedAt" = now() WHERE id = $1`, [stored.rows[0].id]);
    };
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bare');
    if (req.method === 'GET') {
      const ok = url.searchParams.get('hub.verify_token') === verifyToken;
      res.writeHead(ok ? 200 : 403).end(ok ? url.searchParams.get('hub.challenge') : '');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const given = Buffer.from(
        String(req.headers['x-hub-signature-256'] ?? '').replace(/^sha256=/, ''),
        'hex',
      );
      const expected = createHmac('sha256', n.appSecret).update(body).digest();
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401).end();
        return;
      }
      const process = await handle(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      const running = process?.();
      if (!running) return;
      pending.add(running);
      await running.finally(() => pending.delete(running));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  if (!(await fake.setWebhook(n.phoneNumberId, { url, verifyToken })))
    throw new Error('the bare handler refused the handshake');
  return async () => {
    await Promise.all(pending);
    server.closeAllConnections();
    server.close();
  };
}

async function measure(fake: FakeCloudApi, bareUrl: string) {
  const { getDb } = await import('../server/db');
  const { startWorkers } = await import('../server/jobs/jobs');
  const { channelSweepJob } = await import('../server/channels/inbound/pipeline');
  const { connectCloudChannel } = await import('../server/channels/chatapp/channel-service');
  const { setChatappThroughput } = await import('../server/channels/chatapp/adapter');
  const { resetEnvCache } = await import('../server/config/env');
  const webhook = await serveWebhook();
  process.env.BLOCKBOT_BASE_URL = webhook.url;
  resetEnvCache();
  const stopListening = listenForAnswers(fake);
  const db = await getDb();
  await startWorkers([channelSweepJob] as never);
  const pool = new pg.Pool({ connectionString: bareUrl, max: 10 });

  const project = await createProject(db, { name: 'chat-app bench', plan: 'business' });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Got #{question}', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const ours = fake.addNumber({ displayPhoneNumber: '15550007001' });
  const connected = await connectCloudChannel(db, project.id, {
    phoneNumberId: ours.phoneNumberId,
    businessAccountId: ours.wabaId,
    accessToken: ours.token,
    appSecret: ours.appSecret,
  });
  if (!(await fake.setWebhook(ours.phoneNumberId, connected.webhook)))
    throw new Error('our webhook refused the handshake');

  const bareDb = await openDatabase({ mode: 'server', url: bareUrl });
  const bareProject = await createProject(bareDb.prisma, { name: 'bare', plan: 'business' });
  const bare = fake.addNumber({ displayPhoneNumber: '15550007002' });
  const bareChannel = await bareDb.prisma.channel.create({
    data: { projectId: bareProject.id, kind: 'chatapp', clientType: 6, groupId: bare.displayPhoneNumber },
  });
  await bareDb.close();
  const closeBare = await bareHandler(fake, bare, pool, bareChannel.id, bareProject.id);

  try {
    setChatappThroughput(1e9);
    console.log(
      `\n${CLIENTS} clients at once × ${MESSAGES_PER_CLIENT} messages × ${ROUNDS} rounds, each answered; load in this process`,
    );
    await round(fake, ours, new Tally('messages'));
    await round(fake, bare, new Tally('messages'));
    const oursTally = new Tally('messages');
    const bareTally = new Tally('messages');
    for (let r = 0; r < ROUNDS; r++) {
      await round(fake, ours, oursTally);
      await round(fake, bare, bareTally);
    }
    const a = oursTally.report('chat-app channel (webhook → engine)');
    const b = bareTally.report('bare node:http + pg handler');
    console.log(
      `chat-app channel / bare handler throughput: ${((a.rate / b.rate) * 100).toFixed(0)} % (goal ≥ 60 %)`,
    );

    // First contacts: numbers never seen, so each message makes its client (and its deal) first.
    console.log(`\nfirst contacts: the same rounds, every message from a number never seen before`);
    const oursFirst = new Tally('messages');
    const bareFirst = new Tally('messages');
    for (let r = 0; r < ROUNDS; r++) {
      await round(fake, ours, oursFirst, true);
      await round(fake, bare, bareFirst, true);
    }
    const f = oursFirst.report('chat-app channel, first contacts');
    const g = bareFirst.report('bare handler, first contacts');
    console.log(
      `first contacts / known clients: ours ${((f.rate / a.rate) * 100).toFixed(0)} % (goal ≥ 50 %), bare ${((g.rate / b.rate) * 100).toFixed(0)} %; ours / bare on first contacts ${((f.rate / g.rate) * 100).toFixed(0)} %`,
    );

    console.log(
      `\nopen loop: ${PACE} messages/s over ${CLIENTS} clients for ${PACED_SECONDS} s, each timed from when it was due`,
    );
    const oursPaced = new Tally('messages');
    const barePaced = new Tally('messages');
    await paced(fake, ours, oursPaced);
    await paced(fake, bare, barePaced);
    const p = oursPaced.report(`chat-app channel at ${PACE}/s`);
    barePaced.report(`bare handler at ${PACE}/s`);
    console.log(`chat-app channel p99 at ${PACE}/s: ${p.p99} ms`);
  } finally {
    stopListening();
    await closeBare();
    webhook.close();
    await pool.end();
  }
}

export async function run(): Promise<void> {
  let url: string;
  let bareUrl: string;
  try {
    url = await createServerDatabase(serverUrl);
    bareUrl = await createServerDatabase(serverUrl);
  } catch (error) {
    console.log(
      `PostgreSQL at ${serverUrl} is not reachable (${(error as Error).message}); chatapp bench skipped.`,
    );
    return;
  }
  const fake = await startFakeCloudApi({ limits: null });
  Object.assign(process.env, {
    DATABASE_URL: url,
    BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
    BLOCKBOT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
    BLOCKBOT_CHATAPP_API_ROOT: `${fake.url}/${fake.version}`,
  });
  const { closeDb } = await import('../server/db');
  const { stopBoss } = await import('../server/jobs/boss');
  try {
    await measure(fake, bareUrl);
  } finally {
    await stopBoss();
    await closeDb();
    await fake.close();
    await dropServerDatabase(serverUrl, url).catch(() => {});
    await dropServerDatabase(serverUrl, bareUrl).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

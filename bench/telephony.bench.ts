/**
 * `npm run bench -- telephony`: the telephony channel (jambonz's webhook protocol) on PostgreSQL
 * (BENCH_DATABASE_URL, default the local server), against the fake jambonz gateway.
 *
 * BENCH_TELEPHONY_CALLS calls at once (default 20), each answered by the bot and then, turn
 * after turn, the caller pressing 1 in answer to the `gather`: the gateway posts the gather's
 * actionHook (signed, over HTTP, as jambonz does) and waits for the next verbs. A turn is timed
 * from the press to the verbs' answer; BENCH_TELEPHONY_TURNS turns a call a round (default 20),
 * BENCH_ROUNDS rounds (default 5) after a warm-up of each side, alternating. Our channel (the
 * webhook route → the stored update → the engine → the turn's verbs) beside a bare node:http +
 * pg handler in the same process that checks the signature, stores the same rows (the update,
 * the client, the message in and out, the client's block, the update processed) and answers
 * the same verbs. Prints turns a second and p50/p99 per side; never fails on time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import {
  type FakeCall,
  type FakeJambonz,
  startFakeJambonz,
} from '../server/channels/telephony/testing/fake-jambonz';
import { serveChannelRoutes } from '../server/channels/testing/channel-routes';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';
import { Tally } from './tally';

const CALLS = Number(process.env.BENCH_TELEPHONY_CALLS ?? 20);
const TURNS = Number(process.env.BENCH_TELEPHONY_TURNS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/** The bot both sides speak: two blocks, each asking to press 1 to go to the other. */
const PROMPT = 'Press 1 to go on.';

const callerOf = (c: number) => `+1555010${String(1000 + c)}`;

/** One round: CALLS calls at once, each TURNS presses after its first answer; every press timed. */
async function round(fake: FakeJambonz, tally: Tally) {
  const cpu = process.cpuUsage();
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLS }, async (_, c) => {
      const call: FakeCall = await fake.inboundCall(callerOf(c));
      for (let t = 0; t < TURNS; t++) {
        const at = performance.now();
        await fake.press(call, '1');
        latencies.push(performance.now() - at);
        if (!call.gather)
          throw new Error(`call ${call.sid} asks nothing after a turn: ${call.spoken.at(-1)}`);
      }
      await fake.hangUp(call);
    }),
  );
  const used = process.cpuUsage(cpu);
  tally.add({ latencies, ms: performance.now() - started }, (used.user + used.system) / 1000);
}

/** Whether a `Jambonz-Signature` (`t=<unix>,v1=<hex>`) is the secret's HMAC of `t.body`. */
function signed(header: string, body: Buffer, secret: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]+)/.exec(header)?.[1];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A bare node:http + pg handler: the signature, the same rows, the same verbs. */
async function bareHandler(fake: FakeJambonz, pool: pg.Pool, channelId: number, projectId: number) {
  const gatherVerb = (base: string) => ({
    verb: 'gather',
    actionHook: `${base}/gather`,
    input: ['digits', 'speech'],
    numDigits: 1,
    timeout: 8,
    say: { text: PROMPT },
  });
  async function turn(body: Buffer, base: string) {
    const info = JSON.parse(body.toString('utf8'));
    const text: string = info.digits ?? 'call_answered';
    const stored = await pool.query(
      `INSERT INTO "ChannelUpdate" ("channelId", "externalId", "updateId", chat, payload) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id`,
      [channelId, randomBytes(8).toString('hex'), Date.now(), info.call_sid, body.toString('utf8')],
    );
    const client = await pool.query(
      `INSERT INTO "Client" ("projectId", "platformId", "groupId", "clientType", "updatedAt", "lastMessageAt")
       VALUES ($1, $2, '', 13, now(), now())
       ON CONFLICT ("projectId", "clientType", "groupId", "platformId")
       DO UPDATE SET "lastMessageAt" = now(), "updatedAt" = now() RETURNING id`,
      [projectId, String(info.from).replace(/\D/g, '')],
    );
    const clientId = client.rows[0].id;
    await pool.query(
      `INSERT INTO "Message" ("projectId", "clientId", direction, text) VALUES ($1, $2, 'in', $3)`,
      [projectId, clientId, text],
    );
    await pool.query(
      `INSERT INTO "Message" ("projectId", "clientId", direction, text, status) VALUES ($1, $2, 'out', $3, 'sent')`,
      [projectId, clientId, PROMPT],
    );
    await pool.query(`UPDATE "Client" SET "currentBlockId" = 1 WHERE id = $1`, [clientId]);
    await pool.query(`UPDATE "ChannelUpdate" SET "processedAt" = now() WHERE id = $1`, [stored.rows[0].id]);
    return [gatherVerb(base)];
  }
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      if (!signed(String(req.headers['jambonz-signature'] ?? ''), body, fake.account.webhookSecret)) {
        res.writeHead(401).end();
        return;
      }
      if (req.url?.endsWith('/status')) {
        res.writeHead(200).end();
        return;
      }
      const verbs = await turn(body, base);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verbs));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/call`;
  fake.setApplication({ callHook: base, statusHook: `${base}/status` });
  return () => {
    server.closeAllConnections();
    server.close();
  };
}

async function measure(ours: FakeJambonz, bare: FakeJambonz, bareUrl: string) {
  const { getDb } = await import('../server/db');
  const { startWorkers } = await import('../server/jobs/jobs');
  const { channelSweepJob } = await import('../server/channels/inbound/pipeline');
  const { connectTelephonyChannel } = await import('../server/channels/telephony/channel-service');
  const { resetEnvCache } = await import('../server/config/env');
  const routes = await serveChannelRoutes();
  process.env.BLOCKBOT_BASE_URL = routes.url;
  resetEnvCache();
  const db = await getDb();
  await startWorkers([channelSweepJob] as never);
  const pool = new pg.Pool({ connectionString: bareUrl, max: 10 });

  const project = await createProject(db, { name: 'telephony bench', plan: 'business' });
  const ask = { hint: PROMPT, buttons: [{ text: 'Go on' }] };
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Hello.', trigger: { alternatives: '' }, buttons: ask },
      { id: 2, kind: 'state', text: 'Block two.', buttons: ask },
      { id: 3, kind: 'state', text: 'Block three.', buttons: ask },
    ],
    arrows: [
      { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'Go on' } },
      { id: 2, from: 2, to: 3, kind: 'condition', condition: { alternatives: 'Go on' } },
      { id: 3, from: 3, to: 2, kind: 'condition', condition: { alternatives: 'Go on' } },
    ],
  });
  const connected = await connectTelephonyChannel(db, project.id, {
    apiUrl: ours.url,
    accountSid: ours.account.accountSid,
    apiKey: ours.account.apiKey,
    applicationSid: ours.account.applicationSid,
    webhookSecret: ours.account.webhookSecret,
    callerNumber: '+1 555 000 1000',
  });
  ours.setApplication(connected.webhook);

  const bareDb = await openDatabase({ mode: 'server', url: bareUrl });
  const bareProject = await createProject(bareDb.prisma, { name: 'bare', plan: 'business' });
  const bareChannel = await bareDb.prisma.channel.create({
    data: { projectId: bareProject.id, kind: 'telephony', clientType: 13, groupId: '15550001001' },
  });
  await bareDb.close();
  const closeBare = await bareHandler(bare, pool, bareChannel.id, bareProject.id);

  try {
    console.log(
      `\n${CALLS} calls at once × ${TURNS} turns (a digit pressed → the next verbs) × ${ROUNDS} rounds`,
    );
    await round(ours, new Tally('turns'));
    await round(bare, new Tally('turns'));
    const oursTally = new Tally('turns');
    const bareTally = new Tally('turns');
    for (let r = 0; r < ROUNDS; r++) {
      await round(ours, oursTally);
      await round(bare, bareTally);
    }
    const a = oursTally.report('telephony channel (webhook → engine)');
    const b = bareTally.report('bare node:http + pg handler');
    console.log(`telephony channel / bare handler turns a second: ${((a.rate / b.rate) * 100).toFixed(0)} %`);
    console.log(`telephony channel p99 at ${CALLS} concurrent calls: ${a.p99} ms (bare ${b.p99} ms)`);
  } finally {
    closeBare();
    routes.close();
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
      `PostgreSQL at ${serverUrl} is not reachable (${(error as Error).message}); telephony bench skipped.`,
    );
    return;
  }
  const ours = await startFakeJambonz();
  const bare = await startFakeJambonz();
  Object.assign(process.env, {
    DATABASE_URL: url,
    BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
    BLOCKBOT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
  });
  const { closeDb } = await import('../server/db');
  const { stopBoss } = await import('../server/jobs/boss');
  try {
    await measure(ours, bare, bareUrl);
  } finally {
    await stopBoss();
    await closeDb();
    await ours.close();
    await bare.close();
    await dropServerDatabase(serverUrl, url).catch(() => {});
    await dropServerDatabase(serverUrl, bareUrl).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

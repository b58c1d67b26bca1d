/**
 * `npm run bench -- tg`: the tg channel on PostgreSQL (BENCH_DATABASE_URL, default the local
 * server), against the fake Bot API. BENCH_TG_PARTS picks parts (default all, in this order):
 *
 * 1. `inline`, throughput: 50 chats at once, each posting an update to the bot's webhook (over
 *    HTTP, with the secret header, as the messenger does) and waiting for the bot's answer to
 *    arrive at the fake Bot API before posting the next. Our channel (webhook served as `npm start` serves it → stored
 *    update → engine in the same process → adapter) beside a bare grammY webhook bot in the same
 *    process that stores the same rows with `pg` (the update, the client, the message in and
 *    out) and answers with `ctx.reply`. The bare bot has a database of its own on the same
 *    server, so our update sweeper never takes (and processes) its half-done updates. The fake
 *    has no limits here and our adapter's pacing is lifted, so both are measured rather than
 *    the messenger's 30 a second. Rounds alternate, after a warm-up of each (BENCH_MESSAGES
 *    updates a chat a round, BENCH_ROUNDS rounds). The load runs in this process.
 * 2. `forked`: the same rounds with the load in a process of its own (bench/tg-load.ts), so
 *    this process's CPU is only the bots' and the fake's. BENCH_TG_CPU_PROF=<dir> saves a CPU
 *    profile of each measured round of both throughput parts there, one file per bot and round.
 * 3. `paced`, latency at a client's pace (open loop): BENCH_TG_PACES updates a second (default
 *    10 and 30, the most answers the messenger lets a bot send a second) spread over the 50
 *    chats for BENCH_TG_PACED_SECONDS, each timed from when it was due, ours then bare, pacing
 *    still lifted. The flat-out parts' p99 is only queueing behind the other chats (about
 *    50 ÷ the rate).
 * 4. `broadcast`: BENCH_TG_BROADCAST recipients (default 10,000) sent through our adapter, with
 *    its pacing, to the fake enforcing the messenger's limits (30/s per bot, 1/s per chat).
 * 5. `multipart`: a broadcast of a photo and a text over the caption's 1024 characters (two
 *    sends each) to BENCH_TG_MULTIPART chats (default 1,000), shift 0, through the broadcast
 *    path itself (startBroadcast, its `broadcast.send` jobs run by a worker in this process),
 *    the fake enforcing the limits; timed against the limit's n × 2 ÷ 30 s, and stopped after
 *    BENCH_TG_MULTIPART_CAP_SECONDS (default 5 × that, at least 60 s) with its pace so far.
 *
 * Prints figures; never fails on time.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Bot, webhookCallback } from 'grammy';
import pg from 'pg';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { TG_LIMITS } from '../lib/tg/pacing';
import { type FakeBotApi, startFakeBotApi } from '../server/channels/tg/testing/fake-bot-api';
import type { PrismaClient } from '../server/db/client-type';
import { openDatabase } from '../server/db/database';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';
import { Tally } from './tally';
import {
  AnswerWaiter,
  answerKey,
  answerText,
  closedLoopRound,
  type LoadOrder,
  type LoadReport,
  textUpdate,
  type Webhook,
} from './tg-load';

const CHATS = 50;
/** The throughput parts' chats, the same for both bots and both ways of loading. */
const FIRST_CHAT = 1000;
// Rounds of 1,000 updates, 5 of each bot after a warm-up round of each: shorter ones measured
// mostly how far each side's code had been compiled yet, and their share swung by ±5 points.
const MESSAGES_PER_CHAT = Number(process.env.BENCH_MESSAGES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Open-loop paces (updates a second across the 50 chats): 30 is the most a bot can answer. */
const PACES = (process.env.BENCH_TG_PACES ?? '10,30').split(',').map(Number);
const PACED_SECONDS = Number(process.env.BENCH_TG_PACED_SECONDS ?? 15);
const BROADCAST = Number(process.env.BENCH_TG_BROADCAST ?? 10_000);
const MULTIPART = Number(process.env.BENCH_TG_MULTIPART ?? 1000);
/** A photo and a text each: the messenger's 30 sends a second allow n × 2 ÷ 30 s at best. */
const MULTIPART_IDEAL_SECONDS = (MULTIPART * 2) / 30;
const MULTIPART_CAP_SECONDS = Number(
  process.env.BENCH_TG_MULTIPART_CAP_SECONDS ?? Math.max(60, 5 * MULTIPART_IDEAL_SECONDS),
);
/** A directory to write a CPU profile of each measured throughput round into (`.cpuprofile`, for DevTools). */
const PROFILE_DIR = process.env.BENCH_TG_CPU_PROF;
const PARTS = new Set((process.env.BENCH_TG_PARTS ?? 'inline,forked,paced,broadcast,multipart').split(','));
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const UNLIMITED = { botPerSecond: 1e9, chatPerSecond: 1e9, groupPerMinute: 1e9 };
const MESSENGER_LIMITS = { botPerSecond: 30, chatPerSecond: 1, groupPerMinute: 20 };
/** Over the caption's 1024 characters, so the photo and the text go as two sends. */
const LONG_TEXT = 'Our summer sale starts today: everything in the shop is 30 % off until Sunday. '.repeat(
  16,
);

interface BenchBot {
  token: string;
  webhook: Webhook;
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

let roundNo = 0;
const waiter = new AnswerWaiter();
/** The forked load process whose round is running: the answers go to it. */
let forwardTo: ChildProcess | null = null;

/** One listener on the fake for every awaited answer, here or in the forked load. */
function listenForAnswers(fake: FakeBotApi) {
  return fake.onCall((call) => {
    if (call.method !== 'sendMessage') return;
    const key = answerKey(call.params.chat_id, call.params.text);
    if (forwardTo) forwardTo.send({ type: 'answer', key } satisfies LoadOrder);
    else waiter.arrived(key);
  });
}

/** Posts one text update from `chat` to the bot's webhook; resolves with the time its answer reached the fake. */
async function postAndAwaitAnswer(fake: FakeBotApi, token: string, chat: number, text: string) {
  const answered = waiter.expect(answerKey(chat, answerText(text)));
  const posted = await fake.pushUpdate(token, textUpdate(chat, text));
  if (posted.via !== 'webhook' || posted.status !== 200)
    throw new Error(`webhook answered ${JSON.stringify(posted)}`);
  return answered;
}

/** A closed-loop round with the load in this process. */
async function inlineRound(fake: FakeBotApi, bot: BenchBot, tally: Tally) {
  const tag = `r${roundNo++}m`;
  const cpu = process.cpuUsage();
  const figures = await closedLoopRound(CHATS, MESSAGES_PER_CHAT, (c, i) =>
    postAndAwaitAnswer(fake, bot.token, FIRST_CHAT + c, `${tag}${i}`),
  );
  tally.add(figures, cpuMsSince(cpu));
}

interface LoadProcess {
  process: ChildProcess;
  /** Runs a round in the load process; resolves with its report. */
  round(order: Extract<LoadOrder, { type: 'round' }>): Promise<LoadReport>;
}

/** The forked load process (bench/tg-load.ts), with tsx's loader as this process has it. */
function forkLoad(): LoadProcess {
  const child = fork(fileURLToPath(new URL('./tg-load.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  let waiting: { resolve(report: LoadReport): void; reject(error: Error): void } | undefined;
  child.on('message', (report: LoadReport) => waiting?.resolve(report));
  child.on('exit', (code) => waiting?.reject(new Error(`the load process exited (${code})`)));
  return {
    process: child,
    round: (order) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        child.send(order);
      }),
  };
}

/** A closed-loop round run by the forked load; this process only serves the bot and the fake. */
async function forkedRound(load: LoadProcess, bot: BenchBot, tally: Tally) {
  const cpu = process.cpuUsage();
  forwardTo = load.process;
  const report = await load.round({
    type: 'round',
    webhook: bot.webhook,
    chats: CHATS,
    chatBase: FIRST_CHAT,
    messages: MESSAGES_PER_CHAT,
    tag: `r${roundNo++}m`,
  });
  forwardTo = null;
  tally.add(report, cpuMsSince(cpu), report.cpuMs);
}

/** Runs `fn` under the CPU profiler when BENCH_TG_CPU_PROF names a directory, saving its profile as `name`. */
async function profiled(name: string, fn: () => Promise<void>) {
  if (!PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    fs.writeFileSync(`${PROFILE_DIR}/${name}.cpuprofile`, JSON.stringify(profile));
  }
}

/** Rounds of each bot alternating after a warm-up of each; prints both and their ratio. */
async function throughput(
  load: 'inline' | 'forked',
  ours: BenchBot,
  bare: BenchBot,
  round: (bot: BenchBot, tally: Tally) => Promise<void>,
) {
  const where = load === 'inline' ? 'in this process' : 'in a process of its own';
  console.log(
    `\n${CHATS} chats at once × ${MESSAGES_PER_CHAT} updates × ${ROUNDS} rounds, each answered; load ${where}`,
  );
  await round(ours, new Tally());
  await round(bare, new Tally());
  const oursTally = new Tally();
  const bareTally = new Tally();
  const serverMs = { ours: 0, bare: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    let before = postgresCpuMs();
    await profiled(`tg-${load}-ours-${r}`, () => round(ours, oursTally));
    serverMs.ours += postgresCpuMs() - before;
    before = postgresCpuMs();
    await profiled(`tg-${load}-bare-${r}`, () => round(bare, bareTally));
    serverMs.bare += postgresCpuMs() - before;
  }
  const a = oursTally.report('tg channel (webhook → engine)');
  const b = bareTally.report('bare grammY webhook bot + pg');
  const updates = ROUNDS * CHATS * MESSAGES_PER_CHAT;
  console.log(
    `PostgreSQL's CPU per update (every postgres process of this machine): tg channel ` +
      `${(serverMs.ours / updates).toFixed(2)} ms, bare bot ${(serverMs.bare / updates).toFixed(2)} ms`,
  );
  console.log(
    `tg channel / bare bot throughput, load ${where}: ${((a.rate / b.rate) * 100).toFixed(0)} % (goal ≥ 75 %)`,
  );
}

/** CPU time of every postgres process of this machine so far (Linux /proc), in milliseconds. */
function postgresCpuMs(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (!stat.includes('(postgres)')) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/**
 * Open loop: updates arrive at `perSecond` whatever the bot's speed, spread over the 50 chats in
 * turn, as real clients write. Each is timed from when it was due, so a bot that falls behind
 * is charged for the wait (no coordinated omission).
 */
async function paced(fake: FakeBotApi, token: string, perSecond: number, tally: Tally) {
  const r = roundNo++;
  const count = Math.round(perSecond * PACED_SECONDS);
  const start = performance.now();
  const latencies: number[] = [];
  const answers: Promise<void>[] = [];
  for (let k = 0; k < count; k++) {
    const due = start + (k * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(
      postAndAwaitAnswer(fake, token, 2000 + (k % CHATS), `p${r}k${k}`).then((at) => {
        latencies.push(at - due);
      }),
    );
  }
  await Promise.all(answers);
  tally.add({ latencies, ms: performance.now() - start }, 0);
}

/** The webhook over real HTTP, as the production server (`npm start`) serves it: no Next.js router. */
async function serveWebhook(): Promise<{ url: string; close(): void }> {
  const { serveTgWebhook } = await import('../server/channels/tg/webhook');
  const server = http.createServer((req, res) => {
    if (!serveTgWebhook(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A bare grammY webhook bot: the same rows with `pg`, the same answer. */
async function bareBot(fake: FakeBotApi, pool: pg.Pool, channelId: number, projectId: number) {
  const token = fake.addBot({ username: 'bare_bot' }).token;
  const bot = new Bot(token, {
    client: { apiRoot: fake.url },
    botInfo: { id: 1, is_bot: true, first_name: 'bare', username: 'bare_bot' } as never,
  });
  bot.on('message:text', async (ctx) => {
    const stored = await pool.query(
      `INSERT INTO "ChannelUpdate" ("channelId", "externalId", "updateId", payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING id`,
      [channelId, String(ctx.update.update_id), ctx.update.update_id, JSON.stringify(ctx.update)],
    );
    if (!stored.rows.length) return;
    const client = await pool.query(
      `INSERT INTO "Client" ("projectId", "platformId", "groupId", "clientType", name, "updatedAt", "lastMessageAt")
       VALUES ($1, $2, 'bare_bot', 1, $3, now(), now())
       ON CONFLICT ("projectId", "clientType", "groupId", "platformId")
       DO UPDATE SET "lastMessageAt" = now(), "updatedAt" = now() RETURNING id`,
      [projectId, String(ctx.chat.id), ctx.from.first_name],
    );
    const clientId = client.rows[0].id;
    await pool.query(
      `INSERT INTO "Message" ("projectId", "clientId", direction, text) VALUES ($1, $2, 'in', $3)`,
      [projectId, clientId, ctx.message.text],
    );
    await ctx.reply(answerText(ctx.message.text));
    await pool.query(
      `INSERT INTO "Message" ("projectId", "clientId", direction, text) VALUES ($1, $2, 'out', $3)`,
      [projectId, clientId, answerText(ctx.message.text)],
    );
    await pool.query(`UPDATE "Client" SET "currentBlockId" = 1 WHERE id = $1`, [clientId]);
    await pool.query(`UPDATE "ChannelUpdate" SET "processedAt" = now() WHERE id = $1`, [stored.rows[0].id]);
  });
  const secretToken = randomBytes(24).toString('hex');
  const server = http.createServer(webhookCallback(bot, 'http', { secretToken }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.bot(token).webhook = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secretToken,
  };
  return {
    token,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Clients of the bot to send to, with the fields the adapter reads. */
async function addClients(db: PrismaClient, projectId: number, groupId: string, base: number, n: number) {
  const last = await db.client.aggregate({ _max: { id: true } });
  await db.client.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      projectId,
      clientType: 1,
      groupId,
      platformId: String(base + i),
    })),
  });
  return db.client.findMany({
    where: { projectId, id: { gt: last._max.id ?? 0 } },
    select: { id: true, projectId: true, platformId: true, groupId: true, clientType: true },
    orderBy: { id: 'asc' },
  });
}

/** The fake's 429s and its accepted sends of the bot, of the calls since `from`. */
function sendsSince(fake: FakeBotApi, token: string, from: number, methods: string[]) {
  const sends = fake.calls.slice(from).filter((c) => c.token === token && methods.includes(c.method));
  return {
    ok: sends.filter((c) => c.status === 200).length,
    refused: sends.filter((c) => c.status === 429).length,
  };
}

/** Sent as a broadcast's jobs are: a bounded number in flight, each paced by the adapter. */
async function adapterBroadcast(
  db: PrismaClient,
  fake: FakeBotApi,
  projectId: number,
  bot: { token: string; groupId: string },
) {
  const { tgChannel } = await import('../server/channels/tg/adapter');
  const recipients = await addClients(db, projectId, bot.groupId, 10_000_000, BROADCAST);
  const before = fake.calls.length;
  const started = performance.now();
  const results: { delivered: boolean }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 60 }, async () => {
      while (next < recipients.length) {
        const client = recipients[next++];
        results.push(
          await tgChannel.send(
            client,
            { text: 'Our summer sale starts today', attachments: [], buttons: null, blockId: null },
            { db },
          ),
        );
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { refused } = sendsSince(fake, bot.token, before, ['sendMessage']);
  console.log(
    `\nbroadcast to ${recipients.length} through the adapter: ${seconds.toFixed(1)} s (the limit allows ${(recipients.length / 30).toFixed(1)} s), ` +
      `${results.filter((r) => r.delivered).length} delivered, ${refused} answers 429 over the limit (goal 0)`,
  );
}

/**
 * A photo and a long text to each recipient through the broadcast path itself: startBroadcast
 * queues a `broadcast.send` job per recipient, which this process's worker runs, as a worker
 * process would. Timed from the call until the broadcast is done, or stopped at the cap.
 */
async function multipartBroadcast(
  db: PrismaClient,
  fake: FakeBotApi,
  projectId: number,
  bot: { token: string; groupId: string },
) {
  const { startWorkers } = await import('../server/jobs/jobs');
  const { broadcastSendJob, startBroadcast } = await import('../server/broadcasts/broadcast-jobs');
  const { broadcastProgress } = await import('../server/broadcasts/broadcast-service');
  const recipients = await addClients(db, projectId, bot.groupId, 20_000_000, MULTIPART);
  await startWorkers([broadcastSendJob] as never);
  console.log(
    `\nmulti-part broadcast (a photo by URL + a ${LONG_TEXT.length}-character text) to ${MULTIPART} chats, ` +
      `shift 0, through startBroadcast and the broadcast.send jobs`,
  );
  const before = fake.calls.length;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const broadcast = await startBroadcast(db, projectId, {
    text: LONG_TEXT,
    attachments: [{ type: 'image', url: 'https://example.com/bench/summer-sale.jpg' }],
    buttons: null,
    shiftSeconds: 0,
    clientIds: recipients.map((r) => r.id),
  });
  const queued = elapsed();
  let progress = await broadcastProgress(db, projectId, broadcast.id);
  while (progress.status !== 'done' && elapsed() < MULTIPART_CAP_SECONDS) {
    await sleep(100);
    progress = await broadcastProgress(db, projectId, broadcast.id);
  }
  const seconds = elapsed();
  // Stopped at the cap: the jobs left find the broadcast cancelled and send nothing.
  if (progress.status !== 'done')
    await db.broadcast.update({ where: { id: broadcast.id }, data: { status: 'cancelled' } });
  const { ok, refused } = sendsSince(fake, bot.token, before, ['sendPhoto', 'sendMessage']);
  const done = progress.sent + progress.failed;
  const whole = done ? (seconds * MULTIPART) / done : Number.POSITIVE_INFINITY;
  console.log(
    done < MULTIPART
      ? `  ${seconds.toFixed(1)} s, stopped at the cap with ${done} of ${MULTIPART} recipients done (cancelled); all at that pace: ${whole.toFixed(0)} s`
      : `  ${seconds.toFixed(1)} s (queued in ${queued.toFixed(1)} s)`,
  );
  console.log(
    `  the limit allows ${MULTIPART_IDEAL_SECONDS.toFixed(1)} s (${MULTIPART} × 2 sends ÷ 30 a second): ` +
      `${(whole / MULTIPART_IDEAL_SECONDS).toFixed(2)} × that (goal close to 1)`,
  );
  console.log(
    `  ${progress.sent} sent, ${progress.failed} failed; ${ok} sends accepted, ${refused} answers 429 over the limit (goal 0)`,
  );
}

async function measure(fake: FakeBotApi, bareUrl: string) {
  const { getDb } = await import('../server/db');
  const { startWorkers } = await import('../server/jobs/jobs');
  const { channelSweepJob } = await import('../server/channels/inbound/pipeline');
  const { connectTgChannel } = await import('../server/channels/tg/channel-service');
  const { setTgPacingLimits } = await import('../server/channels/tg/adapter');
  const { resetEnvCache } = await import('../server/config/env');
  const webhook = await serveWebhook();
  const stopListening = listenForAnswers(fake);
  process.env.BLOCKBOT_BASE_URL = webhook.url;
  resetEnvCache();
  const db = await getDb();
  await startWorkers([channelSweepJob] as never);
  const pool = new pg.Pool({ connectionString: bareUrl, max: 10 });

  const project = await createProject(db, { name: 'tg bench', plan: 'business' });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Got #{question}', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const oursToken = fake.addBot({ username: 'bench_bot' }).token;
  const channel = await connectTgChannel(
    db,
    project.id,
    { token: oursToken, mode: 'webhook' },
    async () => {},
  );
  const bareDb = await openDatabase({ mode: 'server', url: bareUrl });
  const bareProject = await createProject(bareDb.prisma, { name: 'bare', plan: 'business' });
  const bareChannel = await bareDb.prisma.channel.create({
    data: { projectId: bareProject.id, kind: 'tg', clientType: 1, groupId: 'bare_bot' },
  });
  await bareDb.close();
  const bareServer = await bareBot(fake, pool, bareChannel.id, bareProject.id);
  const webhookOf = (token: string) => {
    const set = fake.bot(token).webhook;
    if (!set) throw new Error('the bot has no webhook');
    return set;
  };
  const ours = { token: oursToken, webhook: webhookOf(oursToken) };
  const bare = { token: bareServer.token, webhook: webhookOf(bareServer.token) };
  const load = PARTS.has('forked') ? forkLoad() : null;

  try {
    setTgPacingLimits({ botPerSecond: 1e9, privateChatIntervalMs: 0, groupPerMinute: 1e9 });
    if (PARTS.has('inline'))
      await throughput('inline', ours, bare, (bot, tally) => inlineRound(fake, bot, tally));
    if (load) await throughput('forked', ours, bare, (bot, tally) => forkedRound(load, bot, tally));

    // Latency at a client's pace rather than flat out: the messenger lets a bot send 30
    // messages a second, so a bot answering every update is never offered more than that.
    for (const pace of PARTS.has('paced') ? PACES : []) {
      console.log(
        `\nopen loop: ${pace} updates/s over ${CHATS} chats for ${PACED_SECONDS} s, each timed from when it was due`,
      );
      const oursPaced = new Tally();
      const barePaced = new Tally();
      await paced(fake, ours.token, pace, oursPaced);
      await paced(fake, bare.token, pace, barePaced);
      const p = oursPaced.report(`tg channel at ${pace}/s`);
      barePaced.report(`bare grammY bot at ${pace}/s`);
      console.log(`tg channel p99 at ${pace}/s: ${p.p99} ms (goal < 100 ms)`);
    }

    // The broadcasts, with the messenger's limits on both sides. The fake's one-second window
    // forgets the throughput parts' sends first.
    if (!PARTS.has('broadcast') && !PARTS.has('multipart')) return;
    await sleep(1100);
    Object.assign(fake.limits ?? {}, MESSENGER_LIMITS);
    setTgPacingLimits(TG_LIMITS);
    const bot = { token: ours.token, groupId: channel.groupId };
    if (PARTS.has('broadcast')) await adapterBroadcast(db, fake, project.id, bot);
    if (PARTS.has('multipart')) await multipartBroadcast(db, fake, project.id, bot);
  } finally {
    load?.process.kill();
    stopListening();
    bareServer.close();
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
      `PostgreSQL at ${serverUrl} is not reachable (${(error as Error).message}); tg bench skipped.`,
    );
    return;
  }
  const fake = await startFakeBotApi({ limits: UNLIMITED });
  // The app's own settings, as the route handler and the job worker read them.
  Object.assign(process.env, {
    DATABASE_URL: url,
    BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
    BLOCKBOT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
    BLOCKBOT_TG_API_ROOT: fake.url,
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

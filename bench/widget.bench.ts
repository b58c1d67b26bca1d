/**
 * `npm run bench -- widget`: the chat widget on PostgreSQL (BENCH_DATABASE_URL, default the
 * local server). BENCH_WIDGET_VISITORS (default 500) visitors each open a dialog and hold its
 * live stream (server-sent events over HTTP, as widget.js does), then all send
 * BENCH_WIDGET_MESSAGES (default 5) messages one after another, each timed from the send to
 * the bot's reply arriving on the visitor's stream. Live events travel as on a server (PostgreSQL
 * NOTIFY, server/live/live-transport.ts). Prints messages per second, p50/p99,
 * the memory each open stream costs (server and clients share this process: an upper bound)
 * and widget.js's size gzipped. Never fails on time.
 */

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { BOT_SCHEMA_FORMAT } from '../lib/schema';
import { createServerDatabase, dropServerDatabase } from '../server/db/test-support';
import { createProject } from '../server/projects/project-service';
import { saveAndPublish } from '../server/versions/bot-versions';

const VISITORS = Number(process.env.BENCH_WIDGET_VISITORS ?? 500);
const MESSAGES = Number(process.env.BENCH_WIDGET_MESSAGES ?? 5);
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const SITE = 'https://bench.example';

function percentile(sorted: number[], q: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
}

async function widgetSize() {
  // @ts-expect-error: a plain .mjs build script
  const { buildWidget, WIDGET_OUTFILE } = await import('../scripts/build-widget.mjs');
  buildWidget();
  const js = fs.readFileSync(WIDGET_OUTFILE);
  console.log(
    `widget.js                ${(js.length / 1024).toFixed(1)} kB, ${(gzipSync(js).length / 1024).toFixed(1)} kB gzipped`,
  );
}

async function measure() {
  const { getDatabase, getDb } = await import('../server/db');
  const { liveHub } = await import('../server/live/live-events');
  const { connectLiveHub } = await import('../server/live/live-transport');
  const { createWidgetChannel, updateWidgetSettings } = await import(
    '../server/channels/widget/channel-service'
  );
  const { setWidgetLimits } = await import('../server/channels/widget/limits');
  const { serveWidgetRoute } = await import('../server/channels/widget/testing/route-server');
  const { openTestStream } = await import('../server/channels/widget/testing/sse-client');
  setWidgetLimits({
    dialogsPerAddress: 1e9,
    messagesPerVisitor: 1e9,
    messagesPerAddress: 1e9,
    filesPerVisitor: 1e9,
    filesPerAddress: 1e9,
  });
  const db = await getDb();
  // As the server starts (server/runtime): every event also leaves by PostgreSQL NOTIFY.
  await connectLiveHub(liveHub(), await getDatabase());
  const project = await createProject(db, { name: 'widget bench', plan: 'business' });
  await saveAndPublish(db, project.id, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [{ id: 1, kind: 'start', text: 'Got #{question}', trigger: { alternatives: '' } }],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
  const channel = await createWidgetChannel(db, project.id, {});
  const { DEFAULT_WIDGET_SETTINGS } = await import('../lib/widget/settings');
  await updateWidgetSettings(db, project.id, {
    channelId: channel.id,
    settings: { ...DEFAULT_WIDGET_SETTINGS, allowedOrigins: [SITE] },
  });
  const server = await serveWidgetRoute();
  const root = `${server.url}/api/channels/widget/${channel.key}`;
  const post = async (action: string, token?: string, body?: unknown) => {
    const response = await fetch(`${root}/${action}`, {
      method: 'POST',
      headers: {
        origin: SITE,
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body ?? {}),
    });
    if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`);
    return response.json();
  };

  try {
    const dialogs: { token: string }[] = [];
    for (let i = 0; i < VISITORS; i += 50)
      dialogs.push(
        ...(await Promise.all(Array.from({ length: Math.min(50, VISITORS - i) }, () => post('dialog')))),
      );

    globalThis.gc?.();
    const before = process.memoryUsage();
    const waiting = new Map<string, () => void>();
    const streams = dialogs.map((d, v) =>
      openTestStream(
        `${root}/events`,
        { origin: SITE, authorization: `Bearer ${d.token}`, 'last-event-id': '0' },
        (frame) => {
          const text = (frame.data as { text?: string }).text ?? '';
          waiting.get(`${v}:${text}`)?.();
        },
      ),
    );
    await Promise.all(streams.map((s) => s.response));
    globalThis.gc?.();
    const after = process.memoryUsage();
    console.log(
      `open streams             ${VISITORS}: ${((after.rss - before.rss) / VISITORS / 1024).toFixed(1)} kB rss, ${(
        (after.heapUsed - before.heapUsed) / VISITORS / 1024
      ).toFixed(1)} kB heap per connection (both ends)`,
    );

    const latencies: number[] = [];
    const start = performance.now();
    await Promise.all(
      dialogs.map(async (d, v) => {
        for (let m = 0; m < MESSAGES; m++) {
          const text = `v${v}m${m}`;
          const t = performance.now();
          const replied = new Promise<void>((resolve) => waiting.set(`${v}:Got ${text}`, resolve));
          await post('messages', d.token, { text });
          await replied;
          latencies.push(performance.now() - t);
        }
      }),
    );
    const ms = performance.now() - start;
    const sorted = latencies.sort((a, b) => a - b);
    console.log(
      `send → reply on stream   ${((latencies.length / ms) * 1000).toFixed(0)} messages/s   p50 ${percentile(sorted, 0.5)} ms   p99 ${percentile(sorted, 0.99)} ms   (${latencies.length} messages)`,
    );
    await Promise.all(streams.map((s) => s.close()));
  } finally {
    server.close();
    await liveHub().close();
  }
}

export async function run() {
  await widgetSize();
  let url: string;
  try {
    url = await createServerDatabase(serverUrl);
  } catch (error) {
    console.log(
      `PostgreSQL at ${serverUrl} is not reachable (${(error as Error).message}); widget bench skipped.`,
    );
    return;
  }
  Object.assign(process.env, {
    DATABASE_URL: url,
    BLOCKBOT_AUTH_SECRET: 'bench-secret-'.padEnd(40, 'x'),
    BLOCKBOT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  const { closeDb } = await import('../server/db');
  const { stopBoss } = await import('../server/jobs/boss');
  try {
    await measure();
  } finally {
    await stopBoss();
    await closeDb();
    await dropServerDatabase(serverUrl, url).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

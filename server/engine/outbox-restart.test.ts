import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WEBHOOK_CONCURRENCY } from '@/lib/webhooks/adaptive-concurrency';
import { createProcessEnv } from '@/server/db/test-support';
import { runTsx } from '@/server/testing/run-tsx';

/** Each event of a tg client sends two messages; the worker dies inside the last event's second. */
const TG_EVENTS = 6;
const TG_SENDS_BEFORE_KILL = 2 * TG_EVENTS;
const fixture = path.join(import.meta.dirname, 'fixtures', 'outbox-worker.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-outbox-'));
const recordFile = path.join(tmp, 'sends.jsonl');
/** The `webhook-id` of every delivery the receiver got, in order. */
const webhookIds: string[] = [];
let receiver: http.Server;
let hookUrl: string;
let processEnv: Awaited<ReturnType<typeof createProcessEnv>> | undefined;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    webhookIds.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await processEnv?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs a worker process of the fixture to its end; its exit signal, or null when it exited. */
function work(env: Record<string, string>, option: string) {
  const log = fs.openSync(path.join(tmp, 'worker-stderr.log'), 'a');
  const worker = spawn(process.execPath, ['--import', 'tsx', fixture, 'work', option], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', log],
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    worker.on('exit', (code, signal) =>
      resolve({
        code,
        signal,
        stderr: fs.readFileSync(path.join(tmp, 'worker-stderr.log'), 'utf8').slice(-2000),
      }),
    ),
  );
}

interface Counted {
  outbox: { kind: string; state: string; messageId: string }[];
  messages: { id: string; out: boolean; tg: boolean; delivered: boolean; error: string | null }[];
  submissions: string[];
}

it('a worker killed right after an event commits: after a restart every webhook is delivered and every send attempted and recorded', async () => {
  processEnv = await createProcessEnv(tmp);
  const env = {
    ...processEnv.env,
    BLOCKBOT_INLINE_WORKER: 'true',
    BLOCKBOT_HTTP_ALLOW_HOSTS: '127.0.0.1',
    HOOK_URL: hookUrl,
    RECORD_FILE: recordFile,
  };
  const setup = await runTsx(fixture, ['setup'], env);
  expect(setup.code).toBe(0);
  const { projectId } = JSON.parse(setup.stdout) as { projectId: number };

  // Many events, then death inside the second send of the last one: its event committed, its
  // first send recorded, its second attempted but not recorded, its webhooks not queued.
  expect(await work(env, `die-after=${TG_SENDS_BEFORE_KILL}`)).toMatchObject({ signal: 'SIGKILL' });
  const middle = JSON.parse((await runTsx(fixture, ['count'], env)).stdout) as Counted;
  expect(middle.outbox.some((o) => o.state !== 'done')).toBe(true);

  // A new worker carries out what was left (the killed one's claims expire first).
  expect(await work(env, 'finish')).toMatchObject({ code: 0, signal: null });
  const final = JSON.parse((await runTsx(fixture, ['count'], env)).stdout) as Counted;
  expect(final.outbox.every((o) => o.state === 'done')).toBe(true);

  // Every message, in and out, and every submission reached the webhook under its own
  // webhook-id; only those cut off (in flight when the worker died, or answered and not yet
  // recorded: at most a project's concurrency, which grows to WEBHOOK_CONCURRENCY.max while the
  // receiver answers quickly) reached it twice.
  // Events alternate between the tg client and a simulator client, each submitting once.
  expect(final.submissions.length).toBeGreaterThanOrEqual(2 * TG_EVENTS - 1);
  const expectedIds = [
    ...final.messages.map((m) => `msg_${projectId}_${m.id}`),
    ...final.submissions.map((id) => `sub_${projectId}_${id}`),
  ];
  expect(new Set(webhookIds)).toEqual(new Set(expectedIds));
  const copies = webhookIds.filter((id, i) => webhookIds.indexOf(id) !== i);
  expect(copies.length).toBeLessThanOrEqual(WEBHOOK_CONCURRENCY.max);
  expect(new Set(copies).size).toBe(copies.length);

  // Every tg reply was attempted with its message's key and its answer recorded; only the one
  // cut off was attempted twice, with the same key: the first reply of its event, recorded
  // before the second was sent, was not sent again.
  const tgReplies = final.messages.filter((m) => m.out && m.tg);
  expect(tgReplies).toHaveLength(TG_SENDS_BEFORE_KILL);
  expect(tgReplies.every((m) => m.delivered && m.error === null)).toBe(true);
  const keys = fs
    .readFileSync(recordFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { key: string }).key);
  expect(new Set(keys)).toEqual(new Set(tgReplies.map((m) => `message-${m.id}`)));
  expect(keys).toHaveLength(TG_SENDS_BEFORE_KILL + 1);
  expect(keys.at(-1)).toBe(keys.at(-2));
  // Simulator replies are delivered as they are stored, with no outbox row to send them.
  expect(final.outbox.filter((o) => o.kind === 'send')).toHaveLength(TG_SENDS_BEFORE_KILL);
}, 240_000);

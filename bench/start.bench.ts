/**
 * `npm run bench -- start`: how long `npm start` (`node scripts/start.mjs`, on the embedded
 * database) takes to serve its first page, and the memory it holds at rest, beside a bare
 * node:http server started the same way in the same run.
 *
 * 1. Cold: no build (.next is deleted first, as in a fresh clone after `npm install`) and a fresh
 *    data directory: `npm start` → the build → the first page. BENCH_START_COLD=0 skips it (the
 *    build takes a minute or more); the build left by an earlier run is used instead.
 * 2. Built: the build exists, a fresh data directory (the database is created and migrated).
 * 3. Warm: the build and that data directory exist.
 *
 * "First page" is `GET /` answered through to the sign-in page (a 200). Each run also notes
 * when the server printed "listening" (it must not come before an answer). Memory is read in
 * the server process itself (bench/start-memory-probe.mjs, loaded with --import, answers over
 * IPC): RSS, V8's heap (and its young generation, "new space", and large objects), external
 * memory (PGlite's WebAssembly memory is most of it) and array buffers, after the first page and
 * after BENCH_START_IDLE_SECONDS (default 30) at rest.
 *
 * After use: on the first start's server, once its memory at rest is read, a new user's first
 * session in headless Chromium (bench/new-user-session.ts: sign up, the demo bot in the
 * simulator, every tab, an API key and calls with it, the docs), then the same idle wait, and
 * its memory again. BENCH_START_HEAP_SNAPSHOTS=<dir> also writes a V8 heap snapshot of the
 * server at rest and after use there (bench/heap-summary.mjs summarises one).
 *
 * Prints figures beside the goals (first page within 150 s of a cold start; under 300 MiB at
 * rest, under 400 MiB after use); never fails on them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newUserSession } from './new-user-session';

const PORT = 3790;
const IDLE_SECONDS = Number(process.env.BENCH_START_IDLE_SECONDS ?? 30);
const COLD = process.env.BENCH_START_COLD !== '0';
const SNAPSHOTS = process.env.BENCH_START_HEAP_SNAPSHOTS;
const root = path.resolve(import.meta.dirname, '..');
const probe = path.join(root, 'bench', 'start-memory-probe.mjs');
const MiB = 1024 * 1024;

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** V8's heap spaces by name: bytes held (physical_space_size). */
  spaces: Record<string, number>;
}

interface Started {
  child: ChildProcess;
  /** ms from spawn to the first page answered. */
  firstPage: number;
  /** ms from spawn to each line of interest in the server's output. */
  marks: Map<string, number>;
}

const MARKS: Record<string, RegExp> = {
  'build done': /Generating static pages .*\(\d+\/\d+\) in|Finalizing page optimization/,
  ready: /web ready/,
  listening: /listening on http/,
};

/** Servers started and not yet stopped: a failed run stops them too. */
const running = new Set<ChildProcess>();

/** Spawns `node <args>` with the memory probe, and waits for `GET url` to answer 200. */
async function start(args: string[], url: string, env: Record<string, string> = {}): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, ['--import', probe, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  const marks = new Map<string, number>();
  const log: string[] = [];
  const watch = (chunk: Buffer) => {
    const text = String(chunk);
    log.push(text);
    for (const [name, pattern] of Object.entries(MARKS)) {
      if (!marks.has(name) && pattern.test(text)) marks.set(name, performance.now() - began);
    }
  };
  child.stdout?.on('data', watch);
  child.stderr?.on('data', watch);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log.join('')}`);
    const ok = await fetch(url)
      .then(async (response) => {
        await response.arrayBuffer();
        return response.ok;
      })
      .catch(() => false);
    if (ok) return { child, firstPage: performance.now() - began, marks };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function memory(child: ChildProcess): Promise<Memory> {
  child.send('memory');
  const [reply] = await once(child, 'message');
  return reply as Memory;
}

/** With BENCH_START_HEAP_SNAPSHOTS set, the server writes a heap snapshot there. */
async function heapSnapshot(child: ChildProcess, name: string) {
  if (!SNAPSHOTS) return;
  fs.mkdirSync(SNAPSHOTS, { recursive: true });
  child.send({ heapSnapshot: path.resolve(SNAPSHOTS, `${name}.heapsnapshot`) });
  const [reply] = await once(child, 'message');
  console.log(`heap snapshot: ${reply}`);
}

const idle = () => new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));

async function stop(child: ChildProcess) {
  running.delete(child);
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

const seconds = (ms: number | undefined) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

function report(name: string, run: Started, goal?: string) {
  const listening = run.marks.get('listening');
  const parts = [`first page ${seconds(run.firstPage).padStart(7)}`];
  if (run.marks.has('build done')) parts.push(`build done ${seconds(run.marks.get('build done'))}`);
  parts.push(`ready ${seconds(run.marks.get('ready'))}`, `"listening" ${seconds(listening)}`);
  if (listening !== undefined && listening < run.firstPage - 1000) {
    parts.push(`(${seconds(run.firstPage - listening)} before an answer)`);
  }
  console.log(`${name.padEnd(40)} ${parts.join(', ')}${goal ? `   ${goal}` : ''}`);
}

function memoryRow(name: string, m: Memory) {
  console.log(
    `${name.padEnd(40)} RSS ${mib(m.rss).padStart(8)}   heap ${mib(m.heapUsed)} used of ${mib(m.heapTotal)} (new space ${mib(m.spaces.new_space)}, large objects ${mib(m.spaces.large_object_space)})   external ${mib(m.external)} (array buffers ${mib(m.arrayBuffers)})`,
  );
}

/** Memory after the first page, then after IDLE_SECONDS at rest (returned). */
async function memoryAtRest(name: string, child: ChildProcess): Promise<Memory> {
  memoryRow(`${name}: after the first page`, await memory(child));
  await idle();
  const atRest = await memory(child);
  memoryRow(`${name}: after ${IDLE_SECONDS} s at rest`, atRest);
  return atRest;
}

export async function run(): Promise<void> {
  console.log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-start-bench-'));
  const env = (dir: string) => ({
    BLOCKBOT_DATA_DIR: path.join(data, dir),
    PORT: String(PORT),
    // The session's browser signs up at this address: sign-in trusts the base URL's origin.
    BLOCKBOT_BASE_URL: `http://127.0.0.1:${PORT}`,
  });
  const page = `http://127.0.0.1:${PORT}/`;
  const app = [path.join('scripts', 'start.mjs')];
  try {
    // The baseline: a bare node:http server started the same way (node + the probe).
    const bare = await start(
      ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${PORT})`],
      page,
    );
    report('baseline: bare node:http server', bare);
    await new Promise((r) => setTimeout(r, 1000));
    const bareMemory = await memory(bare.child);
    memoryRow('baseline: bare node:http server', bareMemory);
    await stop(bare.child);

    if (COLD) {
      fs.rmSync(path.join(root, '.next'), { recursive: true, force: true });
      const cold = await start(app, page, env('cold'));
      report('cold: no build, fresh data directory', cold, '(goal ≤ 150 s)');
      await stop(cold.child);
    }
    const built = await start(app, page, env('built'));
    report('built: fresh data directory', built);
    const builtAtRest = await memoryAtRest('built', built.child);
    await heapSnapshot(built.child, 'at-rest');
    const session = await newUserSession(`http://127.0.0.1:${PORT}`);
    console.log(
      `built: a new user's session                  ${session.pages} pages, ${session.messages} simulator messages, ${session.apiCalls} API calls answered, in ${seconds(session.took)}`,
    );
    memoryRow('built: right after use', await memory(built.child));
    await idle();
    const afterUse = await memory(built.child);
    memoryRow(`built: after use and ${IDLE_SECONDS} s at rest`, afterUse);
    await heapSnapshot(built.child, 'after-use');
    await stop(built.child);

    const warm = await start(app, page, env('built'));
    report('warm: build and data exist', warm);
    const warmAtRest = await memoryAtRest('warm', warm.child);
    await stop(warm.child);
    console.log(
      `at rest: ${mib(builtAtRest.rss)} after a first start, ${mib(warmAtRest.rss)} after a later one (goal < 300 MiB); after use: ${mib(afterUse.rss)} (goal < 400 MiB); a bare node:http server holds ${mib(bareMemory.rss)}`,
    );
  } finally {
    for (const child of running) await stop(child);
    fs.rmSync(data, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

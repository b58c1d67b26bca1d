import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scrape } from '../server/metrics/testing/scrape';
import { parseRawAnswer, rawUpload } from '../server/testing/raw-upload';

// `npm start` (scripts/start.mjs) on a data directory of its own: the server the README starts,
// with its public API fast path and its shutdown. Needs the build the browser tests use.
const port = Number(process.env.E2E_PORT ?? 3100) + 7;
// Each test starts a production server of its own (up to a minute on a loaded machine) and stops it.
test.describe.configure({ timeout: 240_000 });
const base = `http://127.0.0.1:${port}`;

function cli(dataDir: string, ...args: string[]): string {
  const result = spawnSync(path.join('node_modules', '.bin', 'tsx'), ['cli/main.ts', ...args], {
    env: { ...process.env, BLOCKBOT_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`blockbot ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout.trim();
}

async function startServer(
  dataDir: string,
  env: Record<string, string> = { BLOCKBOT_BASE_URL: base },
): Promise<{ child: ChildProcess; output: () => string }> {
  let output = '';
  const { BLOCKBOT_BASE_URL: _, PORT: __, ...inherited } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs', '-H', '127.0.0.1', '-p', String(port)], {
    env: { ...inherited, BLOCKBOT_DATA_DIR: dataDir, ...env },
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
    if (
      await fetch(`${base}/sign-in`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, output: () => output };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm start did not answer:\n${output}`);
}

/** A POST whose body is sent in two halves, so the request is still in flight in between. */
function halfSentPost(url: string, body: string) {
  const request = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, body: text });
    });
    request.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return { answer, finish: () => request.end(body.slice(half)) };
}

test('npm start serves the public API and, stopped, answers the requests in flight before closing the database', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-start-'));
  let server: ChildProcess | undefined;
  try {
    const projectId = cli(dataDir, 'project', 'create', '--name', 'Shop').match(/project (\d+)/)?.[1];
    const key = cli(dataDir, 'key', 'create', '--project', String(projectId), '--name', 'CRM');
    const { child, output } = await startServer(dataDir);
    server = child;

    // A body over the cap, sent whole before the answer is read (as curl does): the 413 is read,
    // not a broken pipe. The first API call goes through Next.js's route handler, later ones not.
    for (const path of ['route handler', 'fast path']) {
      const answer = parseRawAnswer(await rawUpload(`${base}/api/${key}/save_variables`, 50 * 1024 * 1024));
      expect(answer.status, path).toBe(413);
      expect(answer.body, path).toMatchObject({ status: 'error', error: 'body_too_large' });
    }

    // The fast path answers in the interface's format, as the route handler does.
    const unknown = await fetch(`${base}/api/${key}/get_variables?client_id=999999`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 'error', error: 'not_found' });

    // The running server holds the data directory: `blockbot backup` gets the backup from it.
    const backup = cli(dataDir, 'backup', path.join(dataDir, 'backup.tar'), '--url', base);
    expect(backup).toMatch(/taken by the running server, pid \d+\): 1 projects, 0 clients/);

    const inFlight = halfSentPost(
      `${base}/api/${key}/save_variables`,
      JSON.stringify({ client_id: 999999, variables: { plan: 'gold' } }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    // Stopping: new connections are refused while the request in flight is still answered.
    await expect(fetch(`${base}/sign-in`)).rejects.toThrow();
    inFlight.finish();
    const answered = await inFlight.answer;
    expect(answered.status).toBe(404);
    expect(JSON.parse(answered.body)).toMatchObject({ status: 'error', error: 'not_found' });

    const [code] = await exited;
    expect(code, output()).toBe(0);
    expect(output()).toContain('SIGTERM: shutting down');
    // The embedded database was closed cleanly: its lock is released.
    expect(fs.existsSync(path.join(dataDir, 'blockbot.pid'))).toBe(false);
  } finally {
    // A failed assertion before the SIGTERM leaves no server behind for the next test.
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('npm start -p <port> with no base URL set accepts sign-ups from the page it serves at that port', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-start-'));
  try {
    const { child } = await startServer(dataDir, {});
    try {
      // The browser sends the page's origin; sign-in trusts localhost and 127.0.0.1 at the port served.
      const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, cookie: 'x=1' },
        body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' }),
      });
      expect(signUp.status, await signUp.clone().text()).toBe(200);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('npm start says "listening" only once it serves pages: the database, migrations and job worker are up by then', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-start-'));
  const { BLOCKBOT_BASE_URL: _, PORT: __, ...inherited } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs', '-H', '127.0.0.1', '-p', String(port)], {
    env: { ...inherited, BLOCKBOT_DATA_DIR: dataDir },
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  try {
    const said = new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', () => output.includes('listening on http') && resolve());
      child.on('exit', () => reject(new Error(`npm start exited:\n${output}`)));
    });
    await said;
    // A fresh data directory: the database was created and migrated before the line, not after.
    expect(output.indexOf('web ready')).toBeGreaterThan(-1);
    expect(output.indexOf('web ready')).toBeLessThan(output.indexOf('listening on http'));
    expect((await fetch(`${base}/sign-in`)).status).toBe(200);
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('npm start answers health, readiness and metrics, and on SIGTERM turns not ready before it stops', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-start-'));
  const token = 'e2e-metrics-token-0123456789';
  let server: ChildProcess | undefined;
  try {
    const { child, output } = await startServer(dataDir, {
      BLOCKBOT_BASE_URL: base,
      BLOCKBOT_METRICS_TOKEN: token,
      BLOCKBOT_SHUTDOWN_DELAY_SECONDS: '5',
    });
    server = child;
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', role: 'web' });
    // Embedded mode: the web server runs the jobs, so its job workers are checked too.
    const ready = await fetch(`${base}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true }, worker: { ok: true } },
    });

    expect((await fetch(`${base}/api/metrics`)).status).toBe(401);
    const scraped = await scrape(`${base}/api/metrics`, token);
    expect(scraped.families.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'process_cpu_seconds_total',
        'blockbot_job_backlog',
        'blockbot_outbox_backlog',
      ]),
    );

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    // Within the 5 s the load balancer is given: not ready, yet still answering.
    for (;;) {
      const answer = await fetch(`${base}/api/ready`);
      if (answer.status === 503) {
        expect((await answer.json()).notReady).toContain(
          'shutdown: shutting down (SIGTERM): finishing the requests and jobs in flight',
        );
        break;
      }
    }
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const [code] = await exited;
    expect(code, output()).toBe(0);
  } finally {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

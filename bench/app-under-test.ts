import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import { hashPassword } from 'better-auth/crypto';
import playwrightConfig from '../playwright.config';
import { type Database, openDatabase } from '../server/db/database';
import { createProject } from '../server/projects/project-service';

const EMAIL = 'bench@example.com';
const PASSWORD = 'bench password, long enough';

async function startNext(dataDir: string, port: number): Promise<ChildProcess> {
  const { DATABASE_URL: _server, ...env } = process.env;
  const next = spawn(
    path.join('node_modules', '.bin', 'next'),
    ['start', '-H', '127.0.0.1', '-p', String(port)],
    {
      env: {
        ...env,
        NODE_ENV: 'production',
        PORT: String(port),
        BLOCKBOT_DATA_DIR: dataDir,
        BLOCKBOT_BASE_URL: `http://127.0.0.1:${port}`,
        BLOCKBOT_AUTH_RATE_LIMIT: 'off',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  next.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  for (let i = 0; i < 240; i++) {
    if (next.exitCode !== null) throw new Error(`next start exited:\n${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/sign-in`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return next;
    await new Promise((r) => setTimeout(r, 500));
  }
  next.kill('SIGTERM');
  throw new Error(`next start did not answer on port ${port}:\n${stderr}`);
}

/**
 * The bench user with a password, as Better Auth stores one: signing up no longer joins a
 * project the address was invited to (it takes the invite's link), so the user is made here and
 * the project is created with them as its owner.
 */
async function createUser(prisma: Database['prisma']): Promise<string> {
  const id = randomUUID();
  await prisma.user.create({ data: { id, name: 'Bench', email: EMAIL, emailVerified: true } });
  await prisma.account.create({
    data: {
      id: randomUUID(),
      accountId: id,
      providerId: 'credential',
      userId: id,
      password: await hashPassword(PASSWORD),
    },
  });
  return id;
}

/** Signs the bench user in through the form (it lands on the list of their projects). */
async function signIn(context: BrowserContext, port: number) {
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/sign-in`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/projects');
  await page.close({ runBeforeUnload: false });
}

export interface AppUnderTest {
  browser: Browser;
  /** A browser context signed in as the project's owner. */
  context: BrowserContext;
  /** The project's address (`/projects/<id>`). */
  projectUrl: string;
  /** Runs `cleanup` when the bench closes (first added, last run). */
  onClose(cleanup: () => unknown): void;
  close(): Promise<void>;
}

/**
 * The built app as a user meets it, for browser benchmarks: a fresh embedded database with one
 * project, filled by `seed` before the server starts, `next start` on `port` over it, and headless
 * Chromium (the browser tests' launch options) with a context signed in as the project's owner.
 */
export async function startAppUnderTest(options: {
  port: number;
  viewport: { width: number; height: number };
  seed(prisma: Database['prisma'], projectId: number): Promise<unknown>;
}): Promise<AppUnderTest> {
  if (!fs.existsSync(path.join('.next', 'BUILD_ID')))
    throw new Error('This benchmark needs a build: run `npm run build` first.');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-app-bench-'));
  const cleanups: (() => unknown)[] = [() => fs.rmSync(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const db = await openDatabase({ mode: 'embedded', dataDir: path.join(dataDir, 'pglite') });
    const project = await createProject(db.prisma, {
      name: 'Bench',
      plan: 'business',
      owner: { userId: await createUser(db.prisma), email: EMAIL, name: 'Bench' },
    });
    await options.seed(db.prisma, project.id);
    await db.close();

    const next = await startNext(dataDir, options.port);
    cleanups.push(() => {
      next.kill('SIGTERM');
      return new Promise((r) => next.once('exit', r));
    });
    const browser = await chromium.launch({ ...playwrightConfig.use?.launchOptions, headless: true });
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: options.viewport });
    await signIn(context, options.port);
    return {
      browser,
      context,
      projectUrl: `http://127.0.0.1:${options.port}/projects/${project.id}`,
      onClose: (cleanup) => cleanups.push(cleanup),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

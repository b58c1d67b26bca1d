import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import { hashPassword } from 'better-auth/crypto';
import { type BotSchema, botSchemaSchema } from '../../lib/schema';
import playwrightConfig from '../../playwright.config';
import { type Database, openDatabase } from '../../server/db/database';
import { saveBotSchema } from '../../server/projects/bot-schema-store';
import { createProject } from '../../server/projects/project-service';
import { bareGraph, serveBarePage } from './bare-server';
import { generateBot } from './generate-bot';

const PORT = Number(process.env.BENCH_CANVAS_PORT ?? 3400);
const EMAIL = 'canvas-bench@example.com';
const PASSWORD = 'canvas bench password';
export const VIEWPORT = { width: 1600, height: 1000 };

async function startNext(dataDir: string): Promise<ChildProcess> {
  const { DATABASE_URL: _server, ...env } = process.env;
  const next = spawn(
    path.join('node_modules', '.bin', 'next'),
    ['start', '-H', '127.0.0.1', '-p', String(PORT)],
    {
      env: {
        ...env,
        NODE_ENV: 'production',
        PORT: String(PORT),
        BLOCKBOT_DATA_DIR: dataDir,
        BLOCKBOT_BASE_URL: `http://127.0.0.1:${PORT}`,
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
    const ok = await fetch(`http://127.0.0.1:${PORT}/sign-in`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return next;
    await new Promise((r) => setTimeout(r, 500));
  }
  next.kill('SIGTERM');
  throw new Error(`next start did not answer on port ${PORT}:\n${stderr}`);
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
async function signIn(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${PORT}/sign-in`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/projects');
  await page.close({ runBeforeUnload: false });
}

export interface CanvasBench {
  schema: BotSchema;
  /** The builder's canvas of the generated bot, in a context signed in as its owner. */
  app: { context: BrowserContext; url: string };
  /** The bare React Flow page with the same graph. */
  bare: { context: BrowserContext; url: string };
  close(): Promise<void>;
}

/**
 * Everything the canvas benchmark measures: a fresh embedded database with a project holding a
 * generated bot of `blocks` blocks, `next start` on port 3400 over it, the bare page, and
 * headless Chromium (the browser tests' launch options) with a context for each.
 */
export async function startCanvasBench(blocks: number): Promise<CanvasBench> {
  if (!fs.existsSync(path.join('.next', 'BUILD_ID')))
    throw new Error('The canvas benchmark needs a build: run `npm run build` first.');
  const schema = botSchemaSchema.parse(generateBot(blocks));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-canvas-bench-'));
  const cleanups: (() => unknown)[] = [() => fs.rmSync(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const db = await openDatabase({ mode: 'embedded', dataDir: path.join(dataDir, 'pglite') });
    const project = await createProject(db.prisma, {
      name: 'Canvas bench',
      plan: 'business',
      owner: { userId: await createUser(db.prisma), email: EMAIL, name: 'Bench' },
    });
    await saveBotSchema(db.prisma, project.id, schema);
    await db.close();

    const next = await startNext(dataDir);
    cleanups.push(() => {
      next.kill('SIGTERM');
      return new Promise((r) => next.once('exit', r));
    });
    const bare = await serveBarePage(bareGraph(schema));
    cleanups.push(bare.close);
    const browser = await chromium.launch({ ...playwrightConfig.use?.launchOptions, headless: true });
    cleanups.push(() => browser.close());
    const app = {
      context: await browser.newContext({ viewport: VIEWPORT }),
      url: `http://127.0.0.1:${PORT}/projects/${project.id}`,
    };
    await signIn(app.context);
    return {
      schema,
      app,
      bare: { context: await browser.newContext({ viewport: VIEWPORT }), url: bare.url },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

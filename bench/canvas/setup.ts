import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import { type BotSchema, botSchemaSchema } from '../../lib/schema';
import playwrightConfig from '../../playwright.config';
import { openDatabase } from '../../server/db/database';
import { saveBotSchema } from '../../server/projects/bot-schema-store';
import { createProject } from '../../server/projects/project-service';
import { bareGraph, serveBarePage } from './bare-server';
import { generateBot } from './generate-bot';

const PORT = 3400;
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

/** Signs the bench user up through the form; the invitation by e-mail makes them the project's owner. */
async function signUp(context: BrowserContext, projectId: number) {
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${PORT}/sign-up`);
  await page.getByLabel('Name').fill('Bench');
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(`**/projects/${projectId}`);
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
      owner: { email: EMAIL, name: 'Bench' },
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
    await signUp(app.context, project.id);
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

import type { BrowserContext } from '@playwright/test';
import { type BotSchema, botSchemaSchema } from '../../lib/schema';
import { saveBotSchema } from '../../server/projects/bot-schema-store';
import { startAppUnderTest } from '../app-under-test';
import { bareGraph, serveBarePage } from './bare-server';
import { generateBot } from './generate-bot';

const PORT = Number(process.env.BENCH_CANVAS_PORT ?? 3400);
export const VIEWPORT = { width: 1600, height: 1000 };

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
  const schema = botSchemaSchema.parse(generateBot(blocks));
  const app = await startAppUnderTest({
    port: PORT,
    viewport: VIEWPORT,
    seed: (prisma, projectId) => saveBotSchema(prisma, projectId, schema),
  });
  try {
    const bare = await serveBarePage(bareGraph(schema));
    app.onClose(bare.close);
    return {
      schema,
      app: { context: app.context, url: app.projectUrl },
      bare: { context: await app.browser.newContext({ viewport: VIEWPORT }), url: bare.url },
      close: app.close,
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}

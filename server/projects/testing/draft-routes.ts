import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { transformer } from '@/lib/trpc-transformer';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import type { AppRouter } from '@/server/trpc/root';

/**
 * What a designer's canvas uses of an app instance (docs/builder.md, "Working together"): the
 * bot's live events (`/api/projects/<id>/bot/events`) and the UI's procedures (`/api/trpc`),
 * served over real HTTP as Next.js would; imported once the caller's environment is set.
 */
export async function serveDraftRoutes(): Promise<RouteServer> {
  const events = await import('@/app/api/projects/[projectId]/bot/events/route');
  const trpc = await import('@/app/api/trpc/[trpc]/route');
  const procedure = /^\/api\/trpc\/(?<trpc>[^/]+)$/;
  return serveRoutes([
    { method: 'GET', pattern: /^\/api\/projects\/(?<projectId>[^/]+)\/bot\/events$/, handler: events.GET },
    { method: 'GET', pattern: procedure, handler: trpc.GET },
    { method: 'POST', pattern: procedure, handler: trpc.POST },
  ]);
}

/** The UI's procedures over HTTP at an instance's address, as a browser signed in with `cookie` calls them. */
export const trpcOverHttp = (url: string, cookie: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${url}/api/trpc`, transformer, headers: { cookie } })],
  });

export interface DraftInstance {
  url: string;
  pid: number;
  /** Shuts the instance down as a load balancer's SIGTERM would, and waits for its exit. */
  stop(): Promise<void>;
}

/** The fixture's line once it answers. */
const READY = /^draft instance at (\S+)\n/m;

/**
 * Another app instance in a process of its own (`fixtures/draft-instance.ts`: the web process's
 * start-up, then serveDraftRoutes) on the database `env` names; resolves once it answers.
 */
export function startDraftInstance(env: Record<string, string | undefined>): Promise<DraftInstance> {
  const fixture = path.join(import.meta.dirname, '..', 'fixtures', 'draft-instance.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, BLOCKBOT_SHUTDOWN_DELAY_SECONDS: '0', ...env },
    // Its stdin open: the instance ends when this process does, however this one ends.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = READY.exec(output)?.[1];
      if (!url) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({
        url,
        pid: child.pid ?? 0,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) =>
      reject(new Error(`the instance exited (${code}) before it answered:\n${output}`)),
    );
  });
}

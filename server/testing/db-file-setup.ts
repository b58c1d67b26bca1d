import { afterAll, vi } from 'vitest';
import { installChannels } from '@/server/channels/registry';

// The db tests' setup (vitest.config.mts), run before each test file.

// What the runtime does at a process's start: the channels' adapters and in-flow functions
// handed to the engine, which imports no channel.
installChannels();

// Test files share a process (the `db` project's `isolate: false`: a process per file cost 2 to
// 4 s of CPU each). What one file leaves behind is undone here, so the next starts as in a
// process of its own: its background work stopped, its environment restored, the state our
// modules keep (on globalThis or in module scope) forgotten.
const envAtStart = { ...process.env };
afterAll(async () => {
  const processState = globalThis as Record<string | symbol, unknown>;
  const { stopBoss } = await import('@/server/jobs/boss');
  await stopBoss();
  const live = processState.blockbotLiveHub as { close(): Promise<void> } | undefined;
  await live?.close();
  const { closeDb } = await import('@/server/db');
  await closeDb();
  const ours = (key: string | symbol) =>
    (typeof key === 'string' ? key : (key.description ?? '')).startsWith('blockbot');
  for (const key of Reflect.ownKeys(processState).filter(ours)) {
    stopTimers(processState[key]);
    delete processState[key];
  }
  for (const name of Object.keys(process.env)) if (!(name in envAtStart)) delete process.env[name];
  Object.assign(process.env, envAtStart);
  // Our modules load afresh for the next file (their module-scope caches with them); the
  // packages' (Prisma, PGlite, pg-boss) stay loaded, which is most of what a process's start cost.
  vi.resetModules();
});

/** Clears the timers a process-wide value holds (the roll-up's interval, the outbox sweeper's). */
function stopTimers(value: unknown): void {
  const held = value && typeof value === 'object' ? [value, ...Object.values(value)] : [];
  for (const timer of held) if (isTimer(timer)) clearInterval(timer);
}

const isTimer = (value: unknown): value is NodeJS.Timeout =>
  typeof value === 'object' && value !== null && typeof (value as NodeJS.Timeout).hasRef === 'function';

/**
 * What this process is, for its readiness (readiness.ts): set by the runtime at start, and
 * `stopping` from the first SIGTERM on. Kept on globalThis: Next.js may load a module once per
 * route bundle, and the runtime's copy must be the routes' copy.
 */
export interface HealthState {
  role: 'web' | 'worker' | null;
  /** This process runs job workers (`npm run worker`, or the web server's inline worker). */
  runsJobs: boolean;
  stopping: boolean;
}

const globalForHealth = globalThis as unknown as { blockbotHealth?: HealthState };

export function healthState(): HealthState {
  globalForHealth.blockbotHealth ??= { role: null, runsJobs: false, stopping: false };
  return globalForHealth.blockbotHealth;
}

import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { baseUrl, getEnv } from '@/server/config/env';
import { getSecrets } from '@/server/config/secrets';
import { getDb } from '@/server/db';

export const MIN_PASSWORD_LENGTH = 8;

async function createAuth() {
  const db = await getDb();
  const env = getEnv();
  return betterAuth({
    database: prismaAdapter(db, { provider: 'postgresql' }),
    secret: getSecrets().authSecret,
    baseURL: baseUrl(env),
    // Both spellings of the local address, so the quick start works whichever one is typed.
    trustedOrigins: [baseUrl(env), `http://127.0.0.1:${env.PORT}`, `http://localhost:${env.PORT}`],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: true,
    },
    rateLimit: {
      enabled: env.BLOCKBOT_AUTH_RATE_LIMIT
        ? env.BLOCKBOT_AUTH_RATE_LIMIT === 'on'
        : env.NODE_ENV === 'production',
    },
    telemetry: { enabled: false },
    // Signing up with an invited address does not join its project: addresses are not verified,
    // so joining takes the invite's link (server/projects/invites.ts).
  });
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

const globalForAuth = globalThis as unknown as { blockbotAuth?: Promise<Auth> };

/** Created lazily after the database, once per process. */
export function getAuth(): Promise<Auth> {
  globalForAuth.blockbotAuth ??= createAuth();
  return globalForAuth.blockbotAuth;
}

export async function getSessionFromHeaders(headers: Headers) {
  const auth = await getAuth();
  return auth.api.getSession({ headers });
}

import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { APIError } from 'better-auth/api';
import {
  ACCOUNT_DISABLED_CODE,
  ACCOUNT_DISABLED_MESSAGE,
  INVITE_TOKEN_HEADER,
  SIGN_UP_ERROR_CODES,
  SIGN_UP_REFUSALS,
  type SignUpVerdict,
} from '@/lib/instance/sign-up';
import { baseUrl, getEnv } from '@/server/config/env';
import { getSecrets } from '@/server/config/secrets';
import { getDb } from '@/server/db';
import { claimFirstAdmin } from '@/server/instance/first-admin';
import { isDisabled, signUpVerdictFor } from '@/server/instance/sign-up-gate';

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
    // Who may sign up and who may sign in, checked where accounts and sessions are created, so
    // no route around the sign-up page gets past them (docs/operations.md, "Who may sign up").
    databaseHooks: {
      user: {
        create: {
          async before(user, context) {
            refuseUnless(
              await signUpVerdictFor(db, {
                email: user.email,
                inviteToken: context?.headers?.get(INVITE_TOKEN_HEADER) ?? null,
              }),
            );
          },
          async after(user, context) {
            if (await claimFirstAdmin(db, user.id)) return;
            // Two first sign-ups at once both pass `before` (no account yet); the one that did
            // not become the admin is judged again now that the other exists, so a closed
            // instance never ends up with two accounts.
            const verdict = await signUpVerdictFor(db, {
              email: user.email,
              inviteToken: context?.headers?.get(INVITE_TOKEN_HEADER) ?? null,
              otherThan: user.id,
            });
            if (verdict === 'allowed') return;
            await db.user.delete({ where: { id: user.id } });
            refuseUnless(verdict);
          },
        },
      },
      session: {
        create: {
          async before(session) {
            if (await isDisabled(db, session.userId))
              throw APIError.from('FORBIDDEN', {
                code: ACCOUNT_DISABLED_CODE,
                message: ACCOUNT_DISABLED_MESSAGE,
              });
          },
        },
      },
    },
    // Signing up with an invited address does not join its project: addresses are not verified,
    // so joining takes the invite's link (server/projects/invites.ts).
  });
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

const globalForAuth = globalThis as unknown as { blockbotAuth?: Promise<Auth> };

/** A refused sign-up, in the words the sign-up page shows. */
function refuseUnless(verdict: SignUpVerdict): void {
  if (verdict !== 'allowed')
    throw APIError.from('FORBIDDEN', {
      code: SIGN_UP_ERROR_CODES[verdict],
      message: SIGN_UP_REFUSALS[verdict],
    });
}

/** Created lazily after the database, once per process. */
export function getAuth(): Promise<Auth> {
  globalForAuth.blockbotAuth ??= createAuth();
  return globalForAuth.blockbotAuth;
}

export async function getSessionFromHeaders(headers: Headers) {
  const auth = await getAuth();
  return auth.api.getSession({ headers });
}

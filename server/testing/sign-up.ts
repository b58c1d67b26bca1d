import { getAuth } from '@/server/auth/auth';
import type { PrismaClient } from '@/server/db/client-type';

/**
 * A user signed up through the real auth, for tests of route handlers that read the session
 * (streams, downloads): the session cookie to send and the user's id.
 */
export async function signUpForTest(
  db: PrismaClient,
  email: string,
): Promise<{ cookie: string; userId: string }> {
  const auth = await getAuth();
  const response = await auth.api.signUpEmail({
    body: { email, password: 'correct horse battery', name: email.split('@')[0] },
    asResponse: true,
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const user = await db.user.findUniqueOrThrow({ where: { email } });
  return { cookie, userId: user.id };
}

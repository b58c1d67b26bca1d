import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionFromHeaders } from './auth';

/** For pages: the signed-in user's session, or a redirect to the sign-in page. */
export async function requireSession() {
  const session = await getSessionFromHeaders(await headers());
  if (!session) redirect('/sign-in');
  return session;
}

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionFromHeaders } from '@/server/auth/auth';

export default async function Home() {
  const session = await getSessionFromHeaders(await headers());
  redirect(session ? '/projects' : '/sign-in');
}

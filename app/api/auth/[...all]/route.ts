import { getAuth } from '@/server/auth/auth';

// better-auth is created lazily after the database, so the handler is looked up per request.
async function handler(req: Request) {
  const auth = await getAuth();
  return auth.handler(req);
}

export { handler as GET, handler as POST };

import 'server-only';
import { headers } from 'next/headers';
import { createTRPCContext } from './init';
import { createCaller } from './root';

/**
 * The tRPC procedures for a page's server components, as the signed-in user of its request: the
 * same answers and the same access rules as the browser's calls through /api/trpc.
 */
export async function pageCaller() {
  return createCaller(await createTRPCContext({ headers: await headers() }));
}

import type { PrismaClient } from '@/server/db/client-type';
import type { TRPCContext } from '../init';
import { createCaller } from '../root';

/** The UI's API as a signed-in user with this e-mail (created on first use), for tests. */
export async function signedInCaller(db: PrismaClient, email: string) {
  const user = await db.user.upsert({
    where: { email },
    create: { id: `u-${email}`, email, name: email.split('@')[0] },
    update: {},
  });
  const session = {
    user,
    session: { id: `s-${email}`, userId: user.id },
  } as unknown as TRPCContext['session'];
  return createCaller({ db, session });
}

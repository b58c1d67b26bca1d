import type { PrismaClient } from '@/server/db/client-type';
import { SETTINGS_ID } from './settings';

/**
 * Makes this new account the instance's admin if no account ever was: the settings row's
 * `adminClaimedAt` is set once, by a conditional update that only one of two simultaneous first
 * sign-ups can win (the other waits on the row and then finds it set).
 */
export async function claimFirstAdmin(db: PrismaClient, userId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await tx.instanceSettings.createMany({ data: [{ id: SETTINGS_ID }], skipDuplicates: true });
    const { count } = await tx.instanceSettings.updateMany({
      where: { id: SETTINGS_ID, adminClaimedAt: null },
      data: { adminClaimedAt: new Date() },
    });
    if (count === 0) return false;
    await tx.user.update({ where: { id: userId }, data: { instanceRole: 'admin' } });
    return true;
  });
}

import type { Db } from '@/server/db/client-type';
import { notFound } from '@/server/errors';

/**
 * The funnel a member's Deals board opens on: the one they last viewed, kept per member on the
 * server (`ProjectMember.crmFunnelId`), so it follows them to another browser or device. Null
 * when they never chose one or it was deleted since (the board shows the first funnel).
 */
export async function boardFunnel(db: Db, memberId: number): Promise<number | null> {
  const member = await db.projectMember.findUnique({
    where: { id: memberId },
    select: { crmFunnelId: true },
  });
  return member?.crmFunnelId ?? null;
}

/** Remembers the funnel a member views on the board (a funnel of their project). */
export async function rememberBoardFunnel(db: Db, projectId: number, memberId: number, funnelId: number) {
  const funnel = await db.crmFunnel.findFirst({ where: { id: funnelId, projectId }, select: { id: true } });
  if (!funnel) throw notFound(`Funnel ${funnelId} does not exist in this project: reload the page.`);
  await db.projectMember.update({ where: { id: memberId }, data: { crmFunnelId: funnel.id } });
  return { funnelId: funnel.id };
}

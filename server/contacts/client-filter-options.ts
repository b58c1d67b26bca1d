import { messengerLabel } from '@/lib/client-display';
import type { Db } from '@/server/db/client-type';

/** Tags offered in the filter; a project with more is filtered by typing (not offered here). */
const MAX_TAGS = 200;

/** What the Clients tab's filters offer: only values the project has. */
export async function clientFilterOptions(db: Db, projectId: number) {
  const [types, tags, lists, states, members] = await Promise.all([
    db.client.groupBy({ by: ['clientType'], where: { projectId }, orderBy: { clientType: 'asc' } }),
    db.client.groupBy({
      by: ['tag'],
      where: { projectId, tag: { not: '' } },
      orderBy: { tag: 'asc' },
      take: MAX_TAGS,
    }),
    db.clientList.findMany({
      where: { projectId },
      orderBy: { name: 'asc' },
      select: { id: true, name: true },
    }),
    db.crmState.findMany({
      where: { projectId },
      orderBy: [{ funnel: { position: 'asc' } }, { position: 'asc' }],
      select: { id: true, name: true, funnel: { select: { name: true } } },
    }),
    db.projectMember.findMany({
      where: { projectId },
      orderBy: { email: 'asc' },
      select: { id: true, name: true, email: true },
    }),
  ]);
  return {
    messengers: types.map((t) => ({ clientType: t.clientType, label: messengerLabel(t.clientType) })),
    tags: tags.map((t) => t.tag),
    lists,
    crmStates: states.map((s) => ({ id: s.id, name: `${s.funnel.name}: ${s.name}` })),
    members: members.map((m) => ({ id: m.id, name: m.name || m.email })),
  };
}

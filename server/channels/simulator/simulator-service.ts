import { z } from 'zod';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { type SimulatorEdition, simulatorGroupId } from '@/lib/simulator/editions';
import { placeWarnings, WARNING_KINDS, warningOf } from '@/lib/simulator/warnings';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { type ClientRef, resolveClient } from '@/server/contacts/client-service';
import { saveClientVariables } from '@/server/contacts/client-variables-service';
import { readVariables } from '@/server/contacts/variable-store';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';

/**
 * The builder's test chat: one simulator client per designer and project, driven through the
 * same engine flow as every messenger (the `simulator` channel, client type 99).
 */
export function simulatorClientRef(
  userId: string,
  name: string,
  edition: SimulatorEdition = 'draft',
): ClientRef {
  return {
    clientType: CLIENT_TYPES.simulator,
    groupId: simulatorGroupId(edition),
    platformId: `user:${userId}`,
    name,
  };
}

async function findClient(deps: EngineDeps, projectId: number, userId: string, edition: SimulatorEdition) {
  return deps.db.client.findFirst({
    where: {
      projectId,
      clientType: CLIENT_TYPES.simulator,
      groupId: simulatorGroupId(edition),
      platformId: `user:${userId}`,
    },
  });
}

export async function simulatorSend(
  deps: EngineDeps,
  projectId: number,
  user: { id: string; name: string },
  text: string,
  edition: SimulatorEdition = 'draft',
) {
  return handleEvent(
    deps,
    projectId,
    { ref: simulatorClientRef(user.id, user.name, edition) },
    { type: 'message', text },
  );
}

/**
 * The test client's profile (the simulator's "Test client" form): its name (`#{name}`, the
 * name every screen shows) and the profile variables a bot usually reads, `client.phone`,
 * `client.email` and `client.language`. An empty field clears its variable.
 */
export const testClientInput = z.object({
  name: z.string().trim().max(200, { error: 'The name has at most 200 characters.' }),
  phone: z
    .string()
    .trim()
    .max(40)
    .refine((p) => p === '' || phoneDigits(p).length >= 5, {
      error: 'The phone needs at least 5 digits, like +49 30 1234567, or empty for none.',
    }),
  email: z.union([
    z.literal(''),
    z.email({ error: 'The e-mail must be an address like ann@example.com, or empty for none.' }).max(254),
  ]),
  language: z
    .string()
    .trim()
    .regex(/^$|^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, {
      error: 'The language is a code like en, de or pt-BR, or empty for none.',
    }),
});
export type TestClient = z.infer<typeof testClientInput>;

/** Sets the test client's profile, creating the client when it has not written yet. */
export async function simulatorSetClient(
  deps: EngineDeps,
  projectId: number,
  userId: string,
  profile: TestClient,
  edition: SimulatorEdition = 'draft',
) {
  const client = await resolveClient(deps.db, projectId, simulatorClientRef(userId, profile.name, edition));
  await deps.db.client.update({ where: { id: client.id }, data: { name: profile.name } });
  const value = (v: string) => v || null;
  await saveClientVariables(deps.db, projectId, [client.id], {
    'client.phone': value(profile.phone && `+${phoneDigits(profile.phone)}`),
    'client.email': value(profile.email),
    'client.language': value(profile.language),
  });
}

/** Runs a pending timer or delayed message now, so designers need not wait for it. */
export async function simulatorFireNow(
  deps: EngineDeps,
  projectId: number,
  userId: string,
  scheduledSendId: number,
  edition: SimulatorEdition = 'draft',
) {
  const client = await findClient(deps, projectId, userId, edition);
  const send =
    client &&
    (await deps.db.scheduledSend.findFirst({
      where: { id: scheduledSendId, clientId: client.id, status: 'pending' },
    }));
  if (!client || !send) return null;
  if (send.jobId) await deps.scheduler.cancel(send.jobId).catch(() => {});
  return handleEvent(deps, projectId, { clientId: client.id }, { type: 'scheduled', scheduledSendId });
}

/** Forgets the test client: history, deals, variables, timers and log. */
export async function simulatorReset(
  deps: EngineDeps,
  projectId: number,
  userId: string,
  edition: SimulatorEdition = 'draft',
) {
  const client = await findClient(deps, projectId, userId, edition);
  if (!client) return;
  const jobs = await deps.db.scheduledSend.findMany({
    where: { clientId: client.id, status: 'pending', jobId: { not: null } },
  });
  for (const job of jobs) await deps.scheduler.cancel(job.jobId!).catch(() => {});
  await deps.db.client.delete({ where: { id: client.id } });
}

/**
 * Everything the simulator panel shows. The transcript is the chat with the log's warnings
 * (lib/simulator/warnings) in their places: the designer sees why a value is empty.
 */
export async function simulatorState(
  deps: EngineDeps,
  projectId: number,
  userId: string,
  edition: SimulatorEdition = 'draft',
) {
  const client = await findClient(deps, projectId, userId, edition);
  if (!client)
    return {
      clientId: null,
      clientName: null,
      currentBlockId: null,
      transcript: [],
      variables: { deal: {}, client: {}, project: {} },
      log: [],
      timers: [],
    };
  const db = deps.db;
  const deal = await db.deal.findFirst({
    where: { projectId, clientId: client.id, closedAt: null },
    orderBy: { id: 'desc' },
  });
  const [messages, variables, log, warningEntries, timers] = await Promise.all([
    db.message.findMany({ where: { projectId, clientId: client.id }, orderBy: { id: 'asc' }, take: 500 }),
    readVariables(db, { projectId, clientId: client.id, dealId: deal?.id ?? null }),
    db.engineLogEntry.findMany({
      where: { projectId, clientId: client.id },
      orderBy: { id: 'desc' },
      take: 300,
    }),
    db.engineLogEntry.findMany({
      where: { projectId, clientId: client.id, kind: { in: [...WARNING_KINDS] } },
      orderBy: { id: 'desc' },
      take: 300,
    }),
    db.scheduledSend.findMany({
      where: { projectId, clientId: client.id, status: 'pending' },
      orderBy: { runAt: 'asc' },
    }),
  ]);
  return {
    clientId: client.id,
    /** `#{name}`: the member's name until the Test client form sets another. */
    clientName: client.name,
    currentBlockId: client.currentBlockId,
    transcript: placeWarnings(
      messages.map((m) => ({
        id: Number(m.id),
        direction: m.direction,
        text: m.text,
        attachments: m.attachments,
        buttons: m.buttons,
        blockId: m.blockId,
        messageFromOutside: m.messageFromOutside,
        createdAt: m.createdAt,
      })),
      warningEntries.reverse().flatMap((e) => {
        const warning = warningOf(e.kind, e.data);
        const data = e.data as { sentBefore?: number };
        return warning
          ? [
              {
                id: Number(e.id),
                direction: 'warning' as const,
                ...warning,
                createdAt: e.createdAt,
                sentBefore: data.sentBefore ?? 0,
              },
            ]
          : [];
      }),
    ),
    variables,
    log: log.reverse().map((e) => ({ id: Number(e.id), kind: e.kind, data: e.data, createdAt: e.createdAt })),
    timers: timers.map((t) => ({
      id: t.id,
      kind: t.kind,
      arrowId: t.arrowId,
      blockId: t.blockId,
      runAt: t.runAt,
      payload: t.payload,
    })),
  };
}

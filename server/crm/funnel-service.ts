import { z } from 'zod';
import { STAGE_COLORS } from '@/lib/crm/stage-colors';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { CrmStateKind } from '@/server/db/generated/client';
import { lockCrmStages } from '@/server/db/row-queries';
import { DomainError, invalid, notFound, parseInput } from '@/server/errors';

/**
 * CRM funnels and their stages (docs/crm.md): what admins configure. Every funnel has exactly
 * one won and one lost stage (`kind`): a deal moved there is closed. Stage ids are the API's
 * `state_id`.
 */

const name = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Type a name for the ${what}.`)
    .max(60, `A ${what} name can be at most 60 characters.`);

export const funnelNameInput = name('funnel');
export const stageNameInput = name('stage');
export const stageColorInput = z.enum(STAGE_COLORS, {
  error: `Pick one of the colours: ${STAGE_COLORS.join(', ')}.`,
});
export const cardVariablesInput = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'A variable name cannot be empty.')
      .max(64, 'A variable name can be at most 64 characters.'),
  )
  .max(5, 'Show at most 5 variables on a card.');

export interface FunnelView {
  id: number;
  name: string;
  position: number;
  cardVariables: string[];
  stages: {
    id: number;
    name: string;
    color: string;
    kind: CrmStateKind;
    position: number;
    /** Open deals in the stage (won and lost: the deals closed there). */
    deals: number;
  }[];
}

/** The project's funnels in order, each with its stages in order and their deal counts. */
export async function listFunnels(db: Db, projectId: number): Promise<FunnelView[]> {
  const [funnels, counts] = await Promise.all([
    db.crmFunnel.findMany({
      where: { projectId },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      include: { states: { orderBy: [{ position: 'asc' }, { id: 'asc' }] } },
    }),
    db.deal.groupBy({
      by: ['stateId'],
      where: { projectId, stateId: { not: null } },
      _count: { _all: true },
    }),
  ]);
  const count = new Map(counts.map((c) => [c.stateId, c._count._all]));
  return funnels.map((f) => ({
    id: f.id,
    name: f.name,
    position: f.position,
    cardVariables: f.cardVariables,
    stages: f.states.map((s) => ({
      id: s.id,
      name: s.name,
      color: s.color,
      kind: s.kind,
      position: s.position,
      deals: count.get(s.id) ?? 0,
    })),
  }));
}

/** The stages every new funnel starts with. */
export const NEW_FUNNEL_STAGES: { name: string; kind: CrmStateKind; color: string }[] = [
  { name: 'New', kind: 'open', color: 'blue' },
  { name: 'In progress', kind: 'open', color: 'amber' },
  { name: 'Won', kind: 'won', color: 'green' },
  { name: 'Lost', kind: 'lost', color: 'red' },
];

/** Creates a funnel with its first stages (a project's first funnel too: `createProject`). */
export async function createFunnelIn(tx: Db, projectId: number, funnelName: string) {
  const last = await tx.crmFunnel.aggregate({ where: { projectId }, _max: { position: true } });
  const funnel = await tx.crmFunnel.create({
    data: { projectId, name: funnelName, position: (last._max.position ?? -1) + 1 },
  });
  await tx.crmState.createMany({
    data: NEW_FUNNEL_STAGES.map((s, position) => ({ ...s, projectId, funnelId: funnel.id, position })),
  });
  return funnel;
}

export function createFunnel(db: PrismaClient, projectId: number, input: { name: string }) {
  const funnelName = parseInput(funnelNameInput, input.name);
  return db.$transaction((tx) => createFunnelIn(tx, projectId, funnelName));
}

async function requireFunnel(db: Db, projectId: number, funnelId: number) {
  const funnel = await db.crmFunnel.findFirst({ where: { id: funnelId, projectId } });
  if (!funnel)
    throw notFound(`Funnel ${funnelId} does not exist in this project (it may have been deleted).`);
  return funnel;
}

async function requireStage(db: Db, projectId: number, stateId: number, field = 'stateId') {
  const stage = await db.crmState.findFirst({ where: { id: stateId, projectId } });
  if (!stage)
    throw new DomainError(
      'not_found',
      `Stage ${stateId} does not exist in this project (it may have been deleted): reload the page.`,
      field,
    );
  return stage;
}

export async function updateFunnel(
  db: Db,
  projectId: number,
  funnelId: number,
  input: { name?: string; cardVariables?: string[] },
) {
  await requireFunnel(db, projectId, funnelId);
  const data = parseInput(
    z.object({ name: funnelNameInput.optional(), cardVariables: cardVariablesInput.optional() }),
    input,
  );
  return db.crmFunnel.update({ where: { id: funnelId }, data });
}

/** Puts the funnels (or a funnel's stages) in the order given: every one of them, once. */
function checkOrder(given: number[], existing: number[], what: string) {
  const same =
    given.length === existing.length &&
    new Set(given).size === given.length &&
    given.every((id) => existing.includes(id));
  if (!same)
    throw new DomainError(
      'conflict',
      `The ${what} changed meanwhile (another admin added or deleted one): reload the page and try again.`,
      'order',
    );
}

export async function reorderFunnels(db: PrismaClient, projectId: number, order: number[]) {
  await db.$transaction(async (tx) => {
    const funnels = await tx.crmFunnel.findMany({ where: { projectId }, select: { id: true } });
    checkOrder(
      order,
      funnels.map((f) => f.id),
      'funnels',
    );
    for (const [position, id] of order.entries())
      await tx.crmFunnel.update({ where: { id }, data: { position } });
  });
}

export async function reorderStages(db: PrismaClient, projectId: number, funnelId: number, order: number[]) {
  await db.$transaction(async (tx) => {
    await requireFunnel(tx, projectId, funnelId);
    const stages = await tx.crmState.findMany({ where: { funnelId }, select: { id: true } });
    checkOrder(
      order,
      stages.map((s) => s.id),
      "funnel's stages",
    );
    for (const [position, id] of order.entries())
      await tx.crmState.update({ where: { id }, data: { position } });
  });
}

/** A new open stage, placed before the funnel's won and lost stages. */
export async function createStage(
  db: PrismaClient,
  projectId: number,
  funnelId: number,
  input: { name: string; color?: string },
) {
  const data = parseInput(z.object({ name: stageNameInput, color: stageColorInput.optional() }), input);
  return db.$transaction(async (tx) => {
    await requireFunnel(tx, projectId, funnelId);
    const stages = await tx.crmState.findMany({
      where: { funnelId },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
    const at = stages.findIndex((s) => s.kind !== 'open');
    const index = at === -1 ? stages.length : at;
    for (const [i, s] of stages.entries()) {
      const position = i < index ? i : i + 1;
      if (s.position !== position) await tx.crmState.update({ where: { id: s.id }, data: { position } });
    }
    return tx.crmState.create({
      data: { projectId, funnelId, name: data.name, color: data.color ?? 'slate', position: index },
    });
  });
}

export async function updateStage(
  db: Db,
  projectId: number,
  stateId: number,
  input: { name?: string; color?: string },
) {
  await requireStage(db, projectId, stateId);
  const data = parseInput(
    z.object({ name: stageNameInput.optional(), color: stageColorInput.optional() }),
    input,
  );
  return db.crmState.update({ where: { id: stateId }, data });
}

/**
 * Deletes a stage. Its deals (open and closed) move to `moveToStateId` in the same
 * transaction; a stage holding deals is not deleted without one. Won and lost stages stay
 * (every funnel has one of each): rename them instead. The stage row is locked first, so a
 * deal moved into it meanwhile either lands before (and is moved with the rest) or finds it
 * gone (its move is refused: docs/crm.md).
 */
export async function deleteStage(
  db: PrismaClient,
  projectId: number,
  stateId: number,
  moveToStateId: number | null,
) {
  return db.$transaction(async (tx) => {
    const stage = await requireStage(tx, projectId, stateId);
    if (stage.kind !== 'open')
      throw new DomainError(
        'invalid',
        `"${stage.name}" is the funnel's ${stage.kind} stage: every funnel keeps one. Rename it instead.`,
        'stateId',
      );
    await lockCrmStages(tx, { stateId });
    const deals = await tx.deal.count({ where: { stateId } });
    if (deals > 0) {
      if (moveToStateId === null)
        throw new DomainError(
          'invalid',
          `"${stage.name}" holds ${deals} deal${deals === 1 ? '' : 's'}: choose the stage to move ${deals === 1 ? 'it' : 'them'} to.`,
          'moveToStateId',
        );
      if (moveToStateId === stateId)
        throw invalid(
          'Choose another stage to move the deals to, not the one being deleted.',
          'moveToStateId',
        );
      const target = await requireStage(tx, projectId, moveToStateId, 'moveToStateId');
      if (target.kind !== 'open')
        throw invalid(
          `Move the deals to an open stage; "${target.name}" would close them. Move them one by one on the board to win or lose them.`,
          'moveToStateId',
        );
      await tx.deal.updateMany({ where: { stateId }, data: { stateId: target.id } });
    }
    await tx.crmState.delete({ where: { id: stateId } });
    return { moved: deals };
  });
}

/**
 * Deletes a funnel; its deals move to `moveToStateId` (an open stage of another funnel): open
 * deals there, won and lost ones to that funnel's won and lost stages. The last funnel stays.
 */
export async function deleteFunnel(
  db: PrismaClient,
  projectId: number,
  funnelId: number,
  moveToStateId: number | null,
) {
  return db.$transaction(async (tx) => {
    const funnel = await requireFunnel(tx, projectId, funnelId);
    if ((await tx.crmFunnel.count({ where: { projectId } })) === 1)
      throw invalid(
        'A project keeps at least one funnel: create another before deleting this one.',
        'funnelId',
      );
    await lockCrmStages(tx, { funnelId });
    const stages = await tx.crmState.findMany({ where: { funnelId } });
    const ids = stages.map((s) => s.id);
    const deals = await tx.deal.count({ where: { stateId: { in: ids } } });
    if (deals > 0) {
      if (moveToStateId === null)
        throw invalid(
          `"${funnel.name}" holds ${deals} deal${deals === 1 ? '' : 's'}: choose a stage of another funnel to move them to.`,
          'moveToStateId',
        );
      const target = await requireStage(tx, projectId, moveToStateId, 'moveToStateId');
      if (target.funnelId === funnelId || target.kind !== 'open')
        throw invalid('Choose an open stage of another funnel to move the deals to.', 'moveToStateId');
      const closing = await tx.crmState.findMany({
        where: { funnelId: target.funnelId, kind: { not: 'open' } },
      });
      for (const kind of ['open', 'won', 'lost'] as const) {
        const to = kind === 'open' ? target.id : closing.find((s) => s.kind === kind)?.id;
        const from = stages.filter((s) => s.kind === kind).map((s) => s.id);
        if (to && from.length)
          await tx.deal.updateMany({ where: { stateId: { in: from } }, data: { stateId: to } });
      }
    }
    await tx.crmFunnel.delete({ where: { id: funnelId } });
    return { moved: deals };
  });
}

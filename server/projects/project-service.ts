import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { MAX_ALLOWED_ORIGINS, parseAllowedOrigin } from '@/lib/cors';
import { PLANS as FORMULA_PLANS } from '@/lib/formula/plans';
import { MAX_PAUSE_MINUTES } from '@/lib/inbox/pause';
import { getEnv } from '@/server/config/env';
import { createFunnelIn } from '@/server/crm/funnel-service';
import type { Db, PrismaClient } from '@/server/db/client-type';
import type { Plan } from '@/server/db/generated/client';
import { lockProjectRow } from '@/server/db/row-queries';
import { DomainError, notFound, parseInput } from '@/server/errors';
import { forgetProjectKeys } from '@/server/projects/live-key-cache';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { demoBotSchema } from './demo-bot';

export const PLANS = FORMULA_PLANS satisfies readonly Plan[];
export const MAX_PROJECT_CONSTANTS = 50;

export const timeZoneSchema = z.string().refine(isTimeZone, {
  error: (issue) =>
    `"${String(issue.input)}" is not a time zone; use an IANA name such as Europe/Berlin or UTC`,
});

export const projectNameSchema = z.string().trim().min(1, 'the project needs a name').max(100);

export const createProjectInput = z.object({
  name: projectNameSchema,
  /** Unset: the instance's default, BLOCKBOT_DEFAULT_PLAN. */
  plan: z.enum(PLANS).optional(),
  timeZone: timeZoneSchema.default('UTC'),
  owner: z
    .object({ userId: z.string().optional(), email: z.string().email(), name: z.string().default('') })
    .optional(),
  withDemoBot: z.boolean().default(false),
});

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A Standard Webhooks signing secret. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Creates a project with what every project starts with: the default CRM funnel, its owner
 * as the first member, and optionally the demo bot.
 */
export async function createProject(db: PrismaClient, input: z.input<typeof createProjectInput>) {
  const data = parseInput(createProjectInput, input);
  const project = await db.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: {
        name: data.name,
        plan: data.plan ?? getEnv().BLOCKBOT_DEFAULT_PLAN,
        timeZone: data.timeZone,
        webhookSecret: newWebhookSecret(),
      },
    });
    await createFunnelIn(tx, project.id, 'Sales');
    if (data.owner) {
      await tx.projectMember.create({
        data: {
          projectId: project.id,
          userId: data.owner.userId,
          email: data.owner.email.toLowerCase(),
          name: data.owner.name,
          role: 'owner',
        },
      });
    }
    return project;
  });
  // The demo bot answers on every channel at once: it is version 1, published.
  if (data.withDemoBot)
    await saveAndPublish(
      db,
      project.id,
      demoBotSchema,
      { userId: data.owner?.userId ?? null, name: data.owner?.name ?? '' },
      'The demo bot',
    );
  return project;
}

export async function listProjectsForUser(db: Db, userId: string) {
  return db.project.findMany({
    // A paused member's projects are not theirs to open (requireMembership refuses them).
    where: { members: { some: { userId, active: true } } },
    orderBy: { createdAt: 'asc' },
    select: { id: true, name: true, plan: true, createdAt: true },
  });
}

export async function listAllProjects(db: Db) {
  return db.project.findMany({
    orderBy: { id: 'asc' },
    select: {
      id: true,
      name: true,
      plan: true,
      timeZone: true,
      createdAt: true,
      _count: { select: { clients: true, apiKeys: true } },
    },
  });
}

export async function getProject(db: Db, projectId: number) {
  const project = await db.project.findUnique({
    where: { id: projectId },
    include: { constants: { orderBy: { name: 'asc' } } },
  });
  if (!project) throw notFound(`Project ${projectId} does not exist.`);
  return project;
}

export async function renameProject(db: Db, projectId: number, name: string) {
  return db.project.update({ where: { id: projectId }, data: { name: parseInput(projectNameSchema, name) } });
}

export async function deleteProject(db: Db, projectId: number) {
  await db.project.delete({ where: { id: projectId } });
}

const constantNameSchema = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'a constant name has letters, digits and _, and does not start with a digit',
  )
  .max(500);

/** One origin allowed to call the public API from a browser, normalized as browsers send it. */
const allowedOriginSchema = z.string().transform((text, ctx) => {
  const parsed = parseAllowedOrigin(text);
  if ('origin' in parsed) return parsed.origin;
  ctx.addIssue({ code: 'custom', message: parsed.error });
  return z.NEVER;
});

export const projectSettingsInput = z.object({
  plan: z.enum(PLANS).optional(),
  timeZone: timeZoneSchema.optional(),
  webhookUrl: z
    .union([
      z.literal(''),
      z.url({ protocol: /^https?$/, error: 'the webhook URL must start with http:// or https://' }),
    ])
    .optional(),
  constants: z
    .array(z.object({ name: constantNameSchema, value: z.string().max(100_000) }))
    .max(MAX_PROJECT_CONSTANTS, `at most ${MAX_PROJECT_CONSTANTS} project constants`)
    .optional(),
  apiAllowedOrigins: z
    .array(allowedOriginSchema)
    .max(MAX_ALLOWED_ORIGINS, `at most ${MAX_ALLOWED_ORIGINS} allowed origins; use * to allow every site`)
    .transform((origins) => [...new Set(origins)])
    .optional(),
  /** Whether the simulator's test conversations are delivered to the webhook (docs/webhooks.md). */
  webhookTestConversations: z.boolean().optional(),
  /** The handoff's pause timeout (docs/inbox.md), in minutes; 0: until an operator resumes. */
  botPauseMinutes: z
    .number()
    .int('the pause timeout is a whole number of minutes')
    .min(0, 'the pause timeout cannot be negative')
    .max(MAX_PAUSE_MINUTES, `the pause timeout can be at most ${MAX_PAUSE_MINUTES} minutes (30 days)`)
    .optional(),
});

/** Updates settings; the constants list replaces the old one as a whole, in one transaction. */
export async function updateProjectSettings(
  db: PrismaClient,
  projectId: number,
  input: z.input<typeof projectSettingsInput>,
) {
  const data = parseInput(projectSettingsInput, input);
  const names = new Set<string>();
  for (const c of data.constants ?? []) {
    if (names.has(c.name))
      throw new DomainError('invalid', `The constant "${c.name}" is defined twice.`, 'constants');
    names.add(c.name);
  }
  const updated = await db.$transaction(async (tx) => {
    const project = await tx.project.update({
      where: { id: projectId },
      data: {
        plan: data.plan,
        timeZone: data.timeZone,
        webhookUrl: data.webhookUrl === undefined ? undefined : data.webhookUrl || null,
        webhookTestConversations: data.webhookTestConversations,
        apiAllowedOrigins: data.apiAllowedOrigins,
        botPauseMinutes: data.botPauseMinutes,
      },
    });
    if (data.constants) {
      // Saves of the list take turns on the project's row; else two at once would both
      // delete the old list and insert theirs side by side.
      await lockProjectRow(tx, projectId);
      await tx.projectConstant.deleteMany({ where: { projectId } });
      await tx.projectConstant.createMany({ data: data.constants.map((c) => ({ projectId, ...c })) });
    }
    return project;
  });
  // The API's key cache holds the plan and allowed origins: this instance applies them at once.
  forgetProjectKeys(projectId);
  return updated;
}

export async function rotateWebhookSecret(db: Db, projectId: number) {
  return db.project.update({ where: { id: projectId }, data: { webhookSecret: newWebhookSecret() } });
}

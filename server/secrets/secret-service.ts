import { secretInputSchema, secretNameSchema } from '@/lib/secrets/secret-input';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { invalid, notFound, parseInput } from '@/server/errors';

/**
 * Project secrets (docs/secrets.md): API keys and tokens a bot's requests and the AI providers
 * use by name. Sealed at rest with the instance's key (bound to the project and the name, so a
 * sealed value copied to another row does not open), write-only: no procedure returns a value;
 * only the server opens them, right where a request is sent.
 */

export const MAX_SECRETS = 100;

const context = (projectId: number, name: string) => `secret:${projectId}:${name}`;

export interface SecretView {
  name: string;
  updatedAt: Date;
}

export async function listSecrets(db: PrismaClient, projectId: number): Promise<SecretView[]> {
  return db.projectSecret.findMany({
    where: { projectId },
    select: { name: true, updatedAt: true },
    orderBy: { name: 'asc' },
  });
}

/** Creates or replaces a secret. */
export async function setSecret(
  db: Db,
  projectId: number,
  name: unknown,
  value: unknown,
): Promise<SecretView> {
  const input = parseInput(secretInputSchema, { name, value });
  const exists = await db.projectSecret.findUnique({
    where: { projectId_name: { projectId, name: input.name } },
  });
  if (!exists && (await db.projectSecret.count({ where: { projectId } })) >= MAX_SECRETS)
    throw invalid(`A project has at most ${MAX_SECRETS} secrets: delete one first`);
  const sealed = encryptSecret(input.value, context(projectId, input.name));
  return db.projectSecret.upsert({
    where: { projectId_name: { projectId, name: input.name } },
    create: { projectId, name: input.name, sealed },
    update: { sealed },
    select: { name: true, updatedAt: true },
  });
}

export async function deleteSecret(db: PrismaClient, projectId: number, name: unknown): Promise<void> {
  const parsed = parseInput(secretNameSchema, name);
  const { count } = await db.projectSecret.deleteMany({ where: { projectId, name: parsed } });
  if (!count) throw notFound(`There is no secret ${parsed} in this project`);
}

/** The project's secrets opened, by name: for the server only, where a request is sent. */
export async function loadSecrets(db: Db, projectId: number): Promise<Map<string, string>> {
  const rows = await db.projectSecret.findMany({
    where: { projectId },
    select: { name: true, sealed: true },
  });
  return new Map(rows.map((r) => [r.name, decryptSecret(r.sealed, context(projectId, r.name))]));
}

import type { BlockRequest } from '@/lib/schema';
import { secretNameSchema } from '@/lib/secrets/secret-input';
import type { PrismaClient } from '@/server/db/client-type';
import { notFound, parseInput } from '@/server/errors';
import { loadBotSchema, saveBotSchema } from '@/server/projects/bot-schema-store';
import { setSecret } from './secret-service';

export interface MovedConstant {
  name: string;
  /** Block and arrow requests of the draft whose `#{project.NAME}` now reads `#{secret.NAME}`. */
  requestsRewritten: number;
  /** Where the draft still reads `project.NAME` outside a request (a message, a formula): it is empty there now. */
  stillReadIn: string[];
}

/**
 * Settings' "Move to secrets" (docs/secrets.md): a constant holding a credential becomes a
 * secret with the same value, the constant goes, and the draft's requests that used it refer to
 * the secret. Published versions keep what they were published with until the next publish.
 */
export async function moveConstantToSecret(
  db: PrismaClient,
  projectId: number,
  name: unknown,
): Promise<MovedConstant> {
  const secretName = parseInput(secretNameSchema, name);
  const constant = await db.projectConstant.findUnique({
    where: { projectId_name: { projectId, name: secretName } },
  });
  if (!constant) throw notFound(`There is no project constant ${secretName}`);
  await setSecret(db, projectId, secretName, constant.value);
  await db.projectConstant.delete({ where: { projectId_name: { projectId, name: secretName } } });

  const { schema, revision } = await loadBotSchema(db, projectId);
  const reference = new RegExp(`#\\{\\s*project\\.${secretName}\\s*\\}`, 'g');
  let requestsRewritten = 0;
  const rewrite = (request: BlockRequest | undefined): BlockRequest | undefined => {
    if (!request) return request;
    const next = {
      ...request,
      url: request.url.replace(reference, `#{secret.${secretName}}`),
      headers: request.headers.replace(reference, `#{secret.${secretName}}`),
      params: request.params.replace(reference, `#{secret.${secretName}}`),
    };
    if (next.url !== request.url || next.headers !== request.headers || next.params !== request.params)
      requestsRewritten++;
    return next;
  };
  const blocks = schema.blocks.map((b) => ({ ...b, request: rewrite(b.request) }));
  const arrows = schema.arrows.map((a) => ({ ...a, request: rewrite(a.request) }));
  if (requestsRewritten)
    await saveBotSchema(db, projectId, { ...schema, blocks, arrows }, { expectedRevision: revision });
  const reads = new RegExp(`project\\.${secretName}\\b`);
  const stillReadIn = [
    ...blocks
      .filter((b) => [b.text, b.formula, b.ai?.prompt ?? '', b.ai?.system ?? ''].some((t) => reads.test(t)))
      .map((b) => `block #${b.id}`),
    ...arrows.filter((a) => reads.test(a.condition?.expression ?? '')).map((a) => `arrow #${a.id}`),
  ];
  return { name: secretName, requestsRewritten, stillReadIn };
}

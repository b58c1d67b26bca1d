import type { Attachment, Buttons } from '@/lib/schema';
import { type Sql, SqlParams } from '@/server/db/raw-sql';
import { variableWriteStatements } from '@/server/variables/variable-store';
import type { EventRun } from './event-run';

export interface StoredOutgoing {
  id: bigint;
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
  delivered: boolean;
  error: string | null;
}

export interface StoredEvent {
  incomingIds: bigint[];
  outgoing: StoredOutgoing[];
}

interface MessageRow {
  direction: 'in' | 'out';
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
  blockId: number | null;
  messageFromOutside: number;
  dedupeKey: string | null;
  delivered: boolean;
}

/**
 * Everything an event stores, in one statement: the incoming message and the outgoing ones
 * (undelivered until their channel says otherwise, unless storing delivers them), the
 * variable changes, the client's block and the engine log. An outgoing message whose send key
 * is already stored (a retried job) is left out, so nothing is sent twice.
 */
export async function storeEventResults(
  sql: Sql,
  run: EventRun,
  options: { lastMessageAt: Date | null; deliveredWhenStored: boolean },
): Promise<StoredEvent> {
  const { lastMessageAt, deliveredWhenStored } = options;
  const params = new SqlParams();
  const projectId = `${params.add(run.project.id)}::int`;
  const clientId = `${params.add(run.client.id)}::int`;
  const at = new Date();
  const time = `${params.add(at)}::timestamp(3)`;
  const parts: string[] = [];

  const messages: MessageRow[] = [
    ...(run.incoming
      ? [{ ...run.incoming, direction: 'in' as const, buttons: null, dedupeKey: null, delivered: true }]
      : []),
    ...run.outgoing.map((m) => ({
      ...m,
      direction: 'out' as const,
      dedupeKey: m.dedupeKey ?? null,
      delivered: deliveredWhenStored,
    })),
  ];
  if (messages.length) {
    const rows = messages.map((m) =>
      [
        projectId,
        clientId,
        `${params.add(m.direction)}::"Direction"`,
        `${params.add(m.text)}::text`,
        `${params.add(JSON.stringify(m.attachments))}::jsonb`,
        `${params.add(m.buttons ? JSON.stringify(m.buttons) : null)}::jsonb`,
        `${params.add(m.blockId)}::int`,
        `${params.add(m.messageFromOutside)}::int`,
        m.delivered ? 'true' : 'false',
        `${params.add(m.dedupeKey)}::text`,
        time,
      ].join(', '),
    );
    parts.push(`messages AS (
      INSERT INTO "Message" ("projectId", "clientId", direction, text, attachments, buttons, "blockId",
        "messageFromOutside", delivered, "dedupeKey", "createdAt")
      VALUES (${rows.join('), (')})
      ON CONFLICT ("dedupeKey") DO NOTHING
      RETURNING id, "dedupeKey")`);
  }

  const variables = [
    ...[...run.variableWrites.deals].flatMap(([dealId, changes]) =>
      variableWriteStatements(
        params,
        { projectId: run.project.id, scope: 'deal', ownerId: dealId },
        changes,
        at,
      ),
    ),
    ...variableWriteStatements(
      params,
      { projectId: run.project.id, scope: 'client', ownerId: run.client.id },
      run.variableWrites.client,
      at,
    ),
  ];
  parts.push(...variables.map((statement, i) => `variables${i} AS (${statement})`));

  const lastMessage = lastMessageAt ? `, "lastMessageAt" = ${params.add(lastMessageAt)}::timestamp(3)` : '';
  parts.push(`client AS (
    UPDATE "Client" SET "currentBlockId" = ${params.add(run.client.currentBlockId)}::int, "updatedAt" = ${time}${lastMessage}
    WHERE id = ${clientId})`);

  if (run.log.length) {
    const rows = run.log.map(
      (entry) =>
        `(${projectId}, ${clientId}, ${params.add(entry.kind)}::text, ${params.add(JSON.stringify(entry.data))}::jsonb, ${time})`,
    );
    parts.push(`log AS (
      INSERT INTO "EngineLogEntry" ("projectId", "clientId", kind, data, "createdAt") VALUES ${rows.join(', ')})`);
  }

  const stored = await sql.query<{ id: string; dedupeKey: string | null }>(
    `WITH ${parts.join(',\n')}
     ${messages.length ? 'SELECT id::text AS id, "dedupeKey" FROM messages' : 'SELECT NULL AS id WHERE false'}`,
    params.values,
  );
  return matchStoredIds(messages, stored);
}

/**
 * Ids are drawn in the order of the VALUES list, so in id order the stored rows follow the
 * messages, less those whose send key was already stored.
 */
function matchStoredIds(
  messages: MessageRow[],
  stored: { id: string; dedupeKey: string | null }[],
): StoredEvent {
  const ids = stored
    .map((row) => ({ id: BigInt(row.id), key: row.dedupeKey }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const result: StoredEvent = { incomingIds: [], outgoing: [] };
  let next = 0;
  for (const m of messages) {
    if (m.dedupeKey !== null && ids[next]?.key !== m.dedupeKey) continue;
    const id = ids[next++].id;
    if (m.direction === 'in') result.incomingIds.push(id);
    else
      result.outgoing.push({
        id,
        text: m.text,
        attachments: m.attachments,
        buttons: m.buttons,
        blockId: m.blockId,
        delivered: m.delivered,
        error: null,
      });
  }
  return result;
}

import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import type { PrismaClient } from '@/server/db/client-type';
import { saveBotSchema } from '@/server/projects/bot-schema-store';

/** A one-block bot that answers every message with "Noted <the message>": known traffic for a test. */
export function saveNotingBot(db: PrismaClient, projectId: number) {
  return saveBotSchema(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'Noted #{question}', trigger: { alternatives: '', match: 'exact' } },
    ],
    arrows: [{ id: 1, from: 1, to: 1, kind: 'unconditional' }],
  });
}

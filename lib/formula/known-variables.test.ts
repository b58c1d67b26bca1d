import { describe, expect, it } from 'vitest';
import { type BotSchemaInput, botSchemaSchema } from '@/lib/schema';
import { knownVariables, SYSTEM_VARIABLES } from './known-variables';

const schema = (input: Omit<BotSchemaInput, 'format'>) =>
  botSchemaSchema.parse({ format: 'blockbot/schema@1', ...input });

describe('known variables of a bot', () => {
  // A line that does not parse (`broken = (`) adds nothing; the lines around it still count.
  it('gathers formula targets, collected replies, stored values, project constants and system variables', () => {
    const bot = schema({
      blocks: [
        {
          id: 1,
          kind: 'start',
          formula:
            "total = 1\nitems[0] = 'a'\nprofile['k'] = 2\nclient.vip = True\nmessage(client_id, 'hi')\nbroken = (",
          request: { url: 'https://example.com', storedValues: 'data|id->order_ref; x->#{dyn}; bad' },
        },
        { id: 2, kind: 'state' },
      ],
      arrows: [
        { id: 5, from: 1, to: 2, kind: 'unconditional', collectInto: 'client.email' },
        {
          id: 6,
          from: 2,
          to: 1,
          kind: 'condition',
          condition: { alternatives: 'ok' },
          request: { url: 'https://example.com', storedValues: 'ok->approved' },
        },
      ],
    });
    const found = knownVariables(bot, ['shop_url']);
    const own = found.filter((v) => !SYSTEM_VARIABLES.some((s) => s.name === v.name));
    expect(own).toEqual([
      { name: 'total', detail: 'set by the formula of block #1' },
      { name: 'items', detail: 'set by the formula of block #1' },
      { name: 'profile', detail: 'set by the formula of block #1' },
      { name: 'client.vip', detail: 'set by the formula of block #1' },
      { name: 'order_ref', detail: 'stored from the request of block #1' },
      { name: 'client.email', detail: 'collected by arrow #5' },
      { name: 'approved', detail: 'stored from the condition request of arrow #6' },
      { name: 'project.shop_url', detail: 'project constant' },
    ]);
    expect(found.find((v) => v.name === 'question')?.detail).toBe(
      "system variable: the client's last message",
    );
    expect(found.map((v) => v.name)).toEqual([...new Set(found.map((v) => v.name))]);
  });

  it('lists every system variable of bot-semantics §3, and keeps them marked read-only when a formula assigns one', () => {
    expect(SYSTEM_VARIABLES.map((v) => v.name)).toEqual([
      'client_id',
      'platform_id',
      'client_type',
      'name',
      'question',
      'message_id',
      'custom_answer',
      'current_date',
      'current_time',
      'timestamp',
      'weekday',
      'next_day',
      'order_id',
      'attachment_url',
      'callback_query_id',
      'message_from_outside',
      'group',
      'messenger',
      'date_of_creation',
      'none',
    ]);
    const found = knownVariables(
      schema({ blocks: [{ id: 1, kind: 'state', formula: 'name = 1' }], arrows: [] }),
    );
    expect(found.find((v) => v.name === 'name')?.detail).toMatch(/^system variable/);
    expect(found).toHaveLength(SYSTEM_VARIABLES.length);
  });
});

import { describe, expect, it } from 'vitest';
import { BLOCK_KIND_RULES, BLOCK_KINDS, BOT_SCHEMA_FORMAT, botSchemaSchema } from '@/lib/schema';
import { compileBot, movesClient } from './compiled-bot';
import { routeMessage } from './routing';

// Routing is pure: a compiled bot, the client's block and the text in, a target out. The
// condition check stands in for comparison expressions and condition requests.

const bot = compileBot(
  botSchemaSchema.parse({
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      { id: 1, kind: 'start', text: 'entry', trigger: { alternatives: '' } },
      { id: 2, kind: 'start', text: 'menu', trigger: { alternatives: 'menu' } },
      { id: 3, kind: 'state', text: 'asked' },
      { id: 4, kind: 'state', text: 'yes' },
      { id: 5, kind: 'not_state', text: 'anything else' },
      { id: 6, kind: 'not_state_condition', text: 'help', trigger: { alternatives: 'help' } },
      { id: 7, kind: 'comment', text: 'a note' },
    ],
    arrows: [
      { id: 1, from: 3, to: 5, kind: 'unconditional' },
      { id: 2, from: 3, to: 4, kind: 'condition', condition: { alternatives: 'yes;sure' } },
      { id: 3, from: 7, to: 4, kind: 'unconditional' },
      { id: 4, from: 4, to: 3, kind: 'continue' },
    ],
  }),
  1,
);
const always = async () => true;
const route = async (current: number | null, text: string, check = always) => {
  const target = await routeMessage(bot, current, text, check);
  return target && { via: target.via, to: target.block.id };
};

describe('routing', () => {
  it('checks start triggers first, then the entry for a new client', async () => {
    expect(await route(3, 'MENU')).toEqual({ via: 'start', to: 2 });
    expect(await route(null, 'hello')).toEqual({ via: 'entry', to: 1 });
  });

  it('takes conditional arrows before the unconditional one, then quick replies; else nothing', async () => {
    expect(await route(3, 'sure')).toEqual({ via: 'arrow', to: 4 });
    expect(await route(3, 'no')).toEqual({ via: 'arrow', to: 5 });
    expect(await route(4, 'help')).toEqual({ via: 'quick_reply', to: 6 });
    expect(await route(4, 'no')).toBeNull();
  });

  it('never takes a continue arrow for a reply: it was followed when its block was entered', async () => {
    expect(await route(4, 'anything')).toBeNull();
    expect(await route(4, 'help')).toEqual({ via: 'quick_reply', to: 6 });
  });

  it("a matching condition whose extra check fails does not fire: the next rule's turn", async () => {
    expect(await route(3, 'yes', async () => false)).toEqual({ via: 'arrow', to: 5 });
  });

  it('never routes to or from a comment', async () => {
    expect(bot.blocks.has(7)).toBe(false);
    expect(bot.arrowsFrom.has(7)).toBe(false);
  });
});

describe('the table of block kinds', () => {
  it('says for every kind whether it runs, where its trigger is checked, whether the client moves in, submits and keeps the deal', () => {
    expect(Object.keys(BLOCK_KIND_RULES).sort()).toEqual([...BLOCK_KINDS].sort());
    const moving = BLOCK_KINDS.filter((kind) => movesClient({ kind } as never));
    expect(moving).toEqual(['start', 'state', 'close_deal', 'data_transfer']);
    expect(BLOCK_KINDS.filter((kind) => BLOCK_KIND_RULES[kind].submits)).toEqual([
      'close_deal',
      'data_transfer',
    ]);
    expect(BLOCK_KINDS.filter((kind) => !BLOCK_KIND_RULES[kind].keepsDeal)).toEqual(['close_deal']);
    expect(bot.triggeredStarts.map((b) => b.id)).toEqual([2]);
    expect(bot.quickReplies.map((b) => b.id)).toEqual([6]);
  });
});

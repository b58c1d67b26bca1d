import { describe, expect, it } from 'vitest';
import { type ArrowInput, type BlockInput, BOT_SCHEMA_FORMAT, botSchemaSchema } from '@/lib/schema';
import { LINT_RULES, lintBot, type MessengerCapabilities, messengersOf, TG_CAPABILITIES } from './lint';

/** A bot from short block and arrow inputs; a start block with an empty trigger (#1) unless told. */
function bot(blocks: BlockInput[], arrows: ArrowInput[] = [], entry = true) {
  const all: BlockInput[] = entry ? [{ id: 1, kind: 'start', name: 'Entry' }, ...blocks] : blocks;
  return botSchemaSchema.parse({ format: BOT_SCHEMA_FORMAT, blocks: all, arrows });
}
const reply = (id: number, from: number, to: number, alternatives = 'yes'): ArrowInput => ({
  id,
  from,
  to,
  kind: 'condition',
  condition: { alternatives },
});
const any = (id: number, from: number, to: number): ArrowInput => ({ id, from, to, kind: 'unconditional' });
const go = (id: number, from: number, to: number): ArrowInput => ({ id, from, to, kind: 'continue' });
const timer = (id: number, from: number, to: number): ArrowInput => ({
  id,
  from,
  to,
  kind: 'timer',
  timer: { delay: 5 },
});

const rule = (name: string, schema: ReturnType<typeof bot>, messengers?: MessengerCapabilities[]) =>
  lintBot(schema, { messengers }).filter((p) => p.rule === name);

describe('bot lint', () => {
  it('is clean on a small working bot', () => {
    const schema = bot(
      [
        { id: 2, kind: 'state', text: 'Your name?' },
        { id: 3, kind: 'not_state', text: 'Hi #{first}', formula: 'greeting = concat("Hi ", first)' },
        { id: 4, kind: 'state', text: 'Menu' },
      ],
      [any(1, 1, 2), { ...any(2, 2, 3), collectInto: 'first' }, go(3, 3, 4)],
    );
    expect(lintBot(schema)).toEqual([]);
  });

  it('too-many-trigger-blocks: more than 500 start and quick-reply blocks is an error on the bot', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: i + 2,
        kind: 'start' as const,
        trigger: { alternatives: `w${i}` },
      }));
    // The schema refuses it, so lint gets the blocks as they stand in the editor.
    const over = {
      blocks: [
        ...bot(many(499)).blocks,
        ...bot(many(3), [], false).blocks.map((b) => ({ ...b, id: b.id + 1000 })),
      ],
      arrows: [],
    };
    const [problem] = lintBot(over).filter((p) => p.rule === 'too-many-trigger-blocks');
    expect(problem).toMatchObject({ severity: 'error', target: { type: 'bot' } });
    expect(problem.message).toContain('503 start and quick-reply blocks: at most 500');
    expect(rule('too-many-trigger-blocks', bot(many(499)))).toEqual([]);
  });

  it('no-entry-block: no start block with an empty trigger', () => {
    const schema = bot([{ id: 2, kind: 'start', trigger: { alternatives: 'hi' } }], [], false);
    expect(rule('no-entry-block', schema)).toMatchObject([{ severity: 'warning', target: { type: 'bot' } }]);
    expect(rule('no-entry-block', bot([]))).toEqual([]);
    expect(rule('no-entry-block', bot([], [], false))).toEqual([]);
  });

  it('extra-entry-block: only the lowest-id start block with an empty trigger greets new clients', () => {
    const schema = bot(
      [
        { id: 5, kind: 'start' },
        { id: 6, kind: 'state' },
      ],
      [any(1, 5, 6)],
    );
    expect(rule('extra-entry-block', schema)).toMatchObject([
      { severity: 'warning', target: { type: 'block', id: 5 } },
    ]);
    expect(rule('extra-entry-block', schema)[0].message).toContain('like start block #1');
    // What only it leads to is not reached either.
    expect(rule('unreachable-block', schema)).toMatchObject([{ target: { type: 'block', id: 6 } }]);
    const triggered = bot([{ id: 5, kind: 'start', trigger: { alternatives: 'hi' } }]);
    expect(rule('extra-entry-block', triggered)).toEqual([]);
  });

  it('arrow-from-not-state: reply arrows out of blocks the client never stands in; timers and continue arrows do fire', () => {
    const schema = bot(
      [
        { id: 2, kind: 'not_state' },
        { id: 3, kind: 'state' },
        { id: 4, kind: 'not_state_condition', trigger: { alternatives: 'help' } },
      ],
      [any(1, 1, 2), reply(2, 2, 3), any(3, 4, 3), timer(4, 2, 3), go(5, 2, 3), go(6, 4, 3)],
    );
    const problems = rule('arrow-from-not-state', schema);
    expect(problems.map((p) => p.target)).toEqual([
      { type: 'arrow', id: 2 },
      { type: 'arrow', id: 3 },
    ]);
    expect(problems[0]).toMatchObject({ severity: 'warning' });
    expect(problems[0].message).toContain('This arrow never fires: the client never stands in block #2');
    expect(problems[0].message).toContain('Make it a continue arrow');
    expect(rule('arrow-from-not-state', bot([{ id: 2, kind: 'state' }], [reply(1, 1, 2)]))).toEqual([]);
  });

  it('reply-arrow-after-continue: a block that continues at once into a state is left before any reply', () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      { id: 3, kind: 'state' },
      { id: 4, kind: 'not_state' },
    ];
    const problems = rule(
      'reply-arrow-after-continue',
      bot(blocks, [go(1, 1, 2), reply(2, 1, 3), any(3, 1, 3)]),
    );
    expect(problems.map((p) => p.target)).toEqual([
      { type: 'arrow', id: 2 },
      { type: 'arrow', id: 3 },
    ]);
    expect(problems[0].message).toContain('block #1 continues at once into block #2 (arrow #1)');
    // Into a not-a-state block the client stays: its reply arrows still fire; so do timers.
    expect(rule('reply-arrow-after-continue', bot(blocks, [go(1, 1, 4), reply(2, 1, 3)]))).toEqual([]);
    expect(rule('reply-arrow-after-continue', bot(blocks, [go(1, 1, 2), timer(2, 1, 3)]))).toEqual([]);
    // A reply arrow that never fires does not reach its block.
    expect(rule('unreachable-block', bot(blocks, [go(1, 1, 2), reply(2, 1, 3), go(3, 2, 4)]))).toMatchObject([
      { target: { type: 'block', id: 3 } },
    ]);
  });

  it('arrow-touches-comment: arrows from or to a comment', () => {
    const schema = bot([{ id: 2, kind: 'comment' }], [any(1, 1, 2)]);
    expect(rule('arrow-touches-comment', schema)).toMatchObject([{ target: { type: 'arrow', id: 1 } }]);
    expect(rule('arrow-touches-comment', bot([{ id: 2, kind: 'state' }], [any(1, 1, 2)]))).toEqual([]);
  });

  it('extra-unconditional-arrow: only the lowest-id "any reply" arrow of a block fires', () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      { id: 3, kind: 'state' },
    ];
    const schema = bot(blocks, [any(7, 1, 2), any(5, 1, 3)]);
    expect(rule('extra-unconditional-arrow', schema)).toMatchObject([{ target: { type: 'arrow', id: 7 } }]);
    expect(rule('extra-unconditional-arrow', bot(blocks, [any(5, 1, 3), reply(6, 1, 2)]))).toEqual([]);
  });

  it('empty-condition: a condition arrow with nothing to match', () => {
    const schema = bot([{ id: 2, kind: 'state' }], [reply(1, 1, 2, ' ; ')]);
    expect(rule('empty-condition', schema)).toMatchObject([{ target: { type: 'arrow', id: 1 } }]);
    expect(rule('empty-condition', bot([{ id: 2, kind: 'state' }], [reply(1, 1, 2, 'ok')]))).toEqual([]);
  });

  it('show-as-button-without-condition: only a condition has a text for the button', () => {
    const blocks: BlockInput[] = [{ id: 2, kind: 'state' }];
    expect(
      rule('show-as-button-without-condition', bot(blocks, [{ ...any(1, 1, 2), showAsButton: true }])),
    ).toMatchObject([{ target: { type: 'arrow', id: 1 } }]);
    expect(
      rule('show-as-button-without-condition', bot(blocks, [{ ...reply(1, 1, 2), showAsButton: true }])),
    ).toEqual([]);
  });

  it('collect-on-timer: a timer has no reply to collect', () => {
    const blocks: BlockInput[] = [{ id: 2, kind: 'state' }];
    expect(rule('collect-on-timer', bot(blocks, [{ ...timer(1, 1, 2), collectInto: 'x' }]))).toMatchObject([
      { target: { type: 'arrow', id: 1 } },
    ]);
    expect(rule('collect-on-timer', bot(blocks, [{ ...any(1, 1, 2), collectInto: 'x' }]))).toEqual([]);
  });

  it('collect-on-continue: a continue arrow has no reply to collect', () => {
    const blocks: BlockInput[] = [{ id: 2, kind: 'state' }];
    const [problem] = rule('collect-on-continue', bot(blocks, [{ ...go(1, 1, 2), collectInto: 'x' }]));
    expect(problem).toMatchObject({ severity: 'warning', target: { type: 'arrow', id: 1 } });
    expect(problem.message).toContain('a continue arrow but collects into "x"');
    expect(rule('collect-on-continue', bot(blocks, [{ ...any(1, 1, 2), collectInto: 'x' }]))).toEqual([]);
  });

  it('quick-reply-without-trigger: a quick reply nothing selects', () => {
    expect(rule('quick-reply-without-trigger', bot([{ id: 2, kind: 'not_state_condition' }]))).toMatchObject([
      { target: { type: 'block', id: 2 } },
    ]);
    expect(
      rule(
        'quick-reply-without-trigger',
        bot([{ id: 2, kind: 'not_state_condition', trigger: { alternatives: 'help' } }]),
      ),
    ).toEqual([]);
  });

  it('unreachable-block: blocks no trigger or firing arrow leads to, through chains', () => {
    const schema = bot(
      [
        { id: 2, kind: 'state' },
        { id: 3, kind: 'not_state' },
        { id: 4, kind: 'state' },
        { id: 5, kind: 'state' },
        { id: 6, kind: 'state' },
        { id: 7, kind: 'comment' },
        { id: 8, kind: 'state' },
      ],
      // 1→2 reaches; 3 is reached by nothing; 3→4 never fires; 5→6 from an unreached block.
      [any(1, 1, 2), reply(2, 3, 4), any(3, 5, 6), timer(4, 2, 8)],
    );
    expect(rule('unreachable-block', schema).map((p) => p.target)).toEqual([
      { type: 'block', id: 3 },
      { type: 'block', id: 4 },
      { type: 'block', id: 5 },
      { type: 'block', id: 6 },
    ]);
  });

  it('unreachable-block: a formula that sends clients to a block by id reaches it', () => {
    const schema = bot(
      [
        { id: 2, kind: 'state', formula: "x = message(client_id, '', 3)" },
        { id: 3, kind: 'state' },
      ],
      [any(1, 1, 2)],
    );
    expect(rule('unreachable-block', schema)).toEqual([]);
  });

  it('variable-never-set: a formula or comparison reads a name nothing sets (a gentle info)', () => {
    const schema = bot(
      [{ id: 2, kind: 'state', formula: 'total = price * count\nlabel = client.name + project.shop' }],
      [{ ...reply(1, 1, 2), condition: { alternatives: 'go', expression: 'age > 18' } }],
    );
    const problems = rule('variable-never-set', schema);
    expect(problems.map((p) => [p.message.match(/"(\w+)"/)?.[1], p.target])).toEqual([
      ['price', { type: 'block', id: 2 }],
      ['count', { type: 'block', id: 2 }],
      ['age', { type: 'arrow', id: 1 }],
    ]);
    expect(problems.every((p) => p.severity === 'info')).toBe(true);
    const set = bot(
      [
        { id: 2, kind: 'state', formula: 'price = 3\ntotal = price * count + len(question)' },
        { id: 3, kind: 'state', request: { url: 'https://x.test', storedValues: 'n->count' } },
      ],
      [
        { ...any(1, 1, 2), collectInto: 'age' },
        { ...reply(2, 2, 3), condition: { alternatives: 'a', expression: 'age > 1' } },
      ],
    );
    expect(rule('variable-never-set', set)).toEqual([]);
  });

  it('placeholder-never-set: #{...} names in texts, buttons, requests and timer dates', () => {
    const schema = bot(
      [
        {
          id: 2,
          kind: 'state',
          text: 'Hi #{nmae}, #{client.name} #{name} #{ 2 + bonus }',
          buttons: [{ text: 'Pay #{sum}' }],
          request: { url: 'https://x.test/#{order}', storedValues: 'a->order_ref' },
        },
      ],
      [any(1, 1, 2), { ...timer(2, 2, 1), timer: { at: '#{visit_date} 10:00' } }],
    );
    expect(
      rule('placeholder-never-set', schema).map((p) => [p.message.split('}')[0], p.target.type]),
    ).toEqual([
      ['#{nmae', 'block'],
      ['#{bonus', 'block'],
      ['#{sum', 'block'],
      ['#{order', 'block'],
      ['#{visit_date', 'arrow'],
    ]);
    const set = bot(
      [
        {
          id: 2,
          kind: 'state',
          text: 'Hi #{first}, #{order_ref}',
          request: { url: 'https://x.test', storedValues: 'a->order_ref' },
        },
      ],
      [{ ...any(1, 1, 2), collectInto: 'first' }],
    );
    expect(rule('placeholder-never-set', set)).toEqual([]);
  });

  it('messenger-cannot-show: buttons a messenger cannot show, given its capabilities', () => {
    const noButtons: MessengerCapabilities = { name: 'sms', buttons: false };
    const list = bot([{ id: 2, kind: 'state', buttons: [{ text: 'A' }] }]);
    expect(rule('messenger-cannot-show', list, [noButtons])).toMatchObject([
      { target: { type: 'block', id: 2 } },
    ]);
    const hint = bot([{ id: 2, kind: 'state', buttons: { hint: 'Pick', buttons: [{ text: 'A' }] } }]);
    expect(rule('messenger-cannot-show', hint, [noButtons])).toEqual([]);
    const many = bot([
      { id: 2, kind: 'state', buttons: Array.from({ length: 101 }, (_, i) => ({ text: `b${i}` })) },
    ]);
    expect(rule('messenger-cannot-show', many, [TG_CAPABILITIES])[0].message).toContain(
      '101 buttons; tg shows at most 100',
    );
    expect(rule('messenger-cannot-show', list, [TG_CAPABILITIES])).toEqual([]);
    expect(rule('messenger-cannot-show', list)).toEqual([]);
    // The builder passes the project's connected channels.
    expect(messengersOf(['tg', 'tg', 'widget'])).toEqual([TG_CAPABILITIES]);
    expect(rule('messenger-cannot-show', many, messengersOf(['tg']))).toHaveLength(1);
    expect(rule('messenger-cannot-show', many, messengersOf([]))).toEqual([]);
  });

  it('has a test above for every rule, and sorts errors first', () => {
    expect(Object.keys(LINT_RULES)).toHaveLength(16);
    const schema = bot([{ id: 2, kind: 'state', formula: 'x = y' }], [], false);
    expect(lintBot(schema).map((p) => p.severity)).toEqual(['warning', 'warning', 'info']);
  });

  it('lints a 1,000-block bot quickly', () => {
    const blocks: BlockInput[] = Array.from({ length: 999 }, (_, i) => ({
      id: i + 2,
      kind: 'state',
      text: `Step #{v${i}}`,
      formula: `v${i + 1} = v${i} + 1`,
    }));
    const arrows = blocks.map((b, i) => any(i + 1, i === 0 ? 1 : (b.id as number) - 1, b.id as number));
    const schema = bot(blocks, arrows);
    lintBot(schema);
    const started = performance.now();
    const problems = lintBot(schema);
    const ms = performance.now() - started;
    expect(problems.map((p) => p.rule)).toEqual(['variable-never-set', 'placeholder-never-set']);
    expect(ms).toBeLessThan(200);
  });
});

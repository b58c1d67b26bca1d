import { describe, expect, it } from 'vitest';
import { type ArrowInput, type BlockInput, BOT_SCHEMA_FORMAT, botSchemaSchema } from '@/lib/schema';
import { demoBotSchema } from './demo-bot';
import { capabilitiesOf, LINT_RULES, lintBot, type MessengerCapabilities, messengersOf } from './lint';

const TG_CAPABILITIES = capabilitiesOf('tg') as MessengerCapabilities;

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
const matching = (
  id: number,
  from: number,
  to: number,
  condition: {
    alternatives: string;
    match?: 'exact' | 'keywords' | 'fuzzy' | 'regex';
    expression?: string;
    ignore?: string;
  },
): ArrowInput => ({ id, from, to, kind: 'condition', condition });
const targets = (problems: { target: unknown }[]) => problems.map((p) => p.target);

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

  it('several-continue-arrows: every continue arrow of a block fires; the warning names them and where the client ends', () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      { id: 3, kind: 'state' },
    ];
    const cont = (id: number, from: number, to: number): ArrowInput => ({ id, from, to, kind: 'continue' });
    const problems = rule('several-continue-arrows', bot(blocks, [cont(9, 1, 3), cont(4, 1, 2)]));
    expect(problems).toMatchObject([{ target: { type: 'arrow', id: 9 } }]);
    expect(problems[0].message).toContain('#4 to block #2, #9 to block #3');
    expect(problems[0].message).toContain('ends in block #3 (arrow #9)');
    expect(rule('several-continue-arrows', bot(blocks, [cont(4, 1, 2), any(5, 1, 3)]))).toEqual([]);
  });

  it('input-check-unused: a check on a block the client never waits in, an exit arrow without a check', () => {
    const input = { type: 'email' as const, variable: 'email' };
    const schema = bot(
      [
        { id: 2, kind: 'not_state', input },
        { id: 3, kind: 'state', input },
        { id: 4, kind: 'state' },
      ],
      [
        { ...any(5, 3, 4), inputExit: true },
        { ...any(6, 4, 3), inputExit: true },
      ],
    );
    expect(rule('input-check-unused', schema).map((p) => p.target)).toEqual([
      { type: 'block', id: 2 },
      { type: 'arrow', id: 6 },
    ]);
    // An exit arrow beside the block's "any reply" is not a second "any reply", nor shadowed by it.
    const exit = bot(
      [
        { id: 3, kind: 'state', input },
        { id: 4, kind: 'state' },
      ],
      [any(7, 3, 4), { ...any(8, 3, 4), inputExit: true }],
    );
    expect(rule('extra-unconditional-arrow', exit)).toEqual([]);
    expect(rule('shadowed-condition', exit)).toEqual([]);
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
    expect(
      problems.map((p) => [
        p.message
          .match(/"(\w+)"|(client\.name)/)
          ?.slice(1)
          .find(Boolean),
        p.target,
      ]),
    ).toEqual([
      ['price', { type: 'block', id: 2 }],
      ['count', { type: 'block', id: 2 }],
      // The profile variable newcomers take for the client's name: the hint says it is `name`.
      ['client.name', { type: 'block', id: 2 }],
      ['age', { type: 'arrow', id: 1 }],
    ]);
    expect(problems[2].message).toContain('the client’s name from the messenger is name');
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
      ['#{client.name', 'block'],
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

  it('messenger-cannot-show: the chat-app messenger shows 10 buttons at most, titles of 24 characters', () => {
    const chatapp = messengersOf(['chatapp']);
    expect(chatapp).toEqual([{ name: 'chatapp', buttons: true, maxButtons: 10, buttonTitleLength: 24 }]);
    const eleven = bot([
      { id: 2, kind: 'state', buttons: Array.from({ length: 11 }, (_, i) => ({ text: `b${i}` })) },
    ]);
    expect(rule('messenger-cannot-show', eleven, chatapp)[0].message).toContain(
      '11 buttons; chatapp shows at most 10',
    );
    const long = bot([{ id: 2, kind: 'state', buttons: [{ text: 'Deliver to my office address' }] }]);
    expect(rule('messenger-cannot-show', long, chatapp)).toMatchObject([
      { target: { type: 'block', id: 2 }, message: expect.stringContaining('over 24 characters') },
    ]);
    // A URL button is sent as an address line, whatever its length; short titles are shown as they are.
    const fine = bot([
      {
        id: 2,
        kind: 'state',
        buttons: [{ text: 'Open the full order page', url: 'https://x.test' }, { text: 'Yes' }],
      },
    ]);
    expect(rule('messenger-cannot-show', fine, chatapp)).toEqual([]);
  });

  it('unknown-crm-stage: a block action moving the deal to a stage the project no longer has', () => {
    const schema = bot([
      { id: 2, kind: 'state', actions: { crmStateId: 7, addToLists: [], removeFromLists: [] } },
      { id: 3, kind: 'state', actions: { crmStateId: 8, addToLists: [], removeFromLists: [] } },
    ]);
    const problems = lintBot(schema, { crmStateIds: [8, 9] }).filter((p) => p.rule === 'unknown-crm-stage');
    expect(problems).toMatchObject([{ severity: 'warning', target: { type: 'block', id: 2 } }]);
    expect(problems[0].message).toContain('CRM stage 7, which no longer exists');
    // Without the project's stages (the CLI), the rule is skipped.
    expect(rule('unknown-crm-stage', schema)).toEqual([]);
  });

  it('shadowed-condition: an arrow checked after one that takes every message it matches never fires', () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      { id: 3, kind: 'state' },
      { id: 4, kind: 'state' },
    ];
    // The same exact condition twice: the second never fires, and what only it leads to is unreached.
    const twice = bot(blocks, [any(1, 1, 2), reply(2, 2, 3, 'Yes'), reply(3, 2, 4, ' yes ;YES')]);
    const [problem] = rule('shadowed-condition', twice);
    expect(problem).toMatchObject({ severity: 'warning', target: { type: 'arrow', id: 3 } });
    expect(problem.message).toContain('arrow #2 out of the same block is checked before it');
    expect(problem.message).toContain('block #4 is never reached along it');
    expect(targets(rule('unreachable-block', twice))).toEqual([{ type: 'block', id: 4 }]);
    // Checked by id, not by the order in the file.
    expect(
      targets(rule('shadowed-condition', bot(blocks, [any(1, 1, 2), reply(3, 2, 4), reply(2, 2, 3)]))),
    ).toEqual([{ type: 'arrow', id: 3 }]);

    const shadowed = (first: ArrowInput, later: ArrowInput) =>
      targets(rule('shadowed-condition', bot(blocks, [any(1, 1, 2), first, later])));
    const exact = (id: number, alternatives: string, extra = {}) =>
      matching(id, 2, id + 1, { alternatives, ...extra });
    // An exact text a keywords or fuzzy condition before it takes; the same alternative in the same mode.
    expect(shadowed(exact(2, 'price', { match: 'keywords' }), exact(3, 'Price'))).toHaveLength(1);
    expect(shadowed(exact(2, 'yess', { match: 'fuzzy' }), exact(3, 'yes'))).toHaveLength(1);
    expect(
      shadowed(exact(2, 'a;price', { match: 'keywords' }), exact(3, 'price', { match: 'keywords' })),
    ).toHaveLength(1);
    // Never a guess: a wider condition after a narrower one, another mode, other strings to ignore.
    expect(shadowed(exact(2, 'yes'), exact(3, 'yes', { match: 'fuzzy' }))).toEqual([]);
    expect(shadowed(exact(2, 'yes;no'), exact(3, 'yes;maybe'))).toEqual([]);
    expect(shadowed(exact(2, 'yes', { ignore: 'please' }), exact(3, 'yes'))).toEqual([]);
    expect(shadowed(exact(2, 'yes', { match: 'regex' }), exact(3, 'yes'))).toEqual([]);
    // A comparison expression or a condition request before it may fail, so the later one may fire.
    expect(shadowed(exact(2, 'yes', { expression: 'age > 18' }), exact(3, 'yes'))).toEqual([]);
    const requested = { ...exact(2, 'yes'), request: { url: 'https://x.test' } };
    expect(shadowed(requested, exact(3, 'yes'))).toEqual([]);
    // The later one's own expression only narrows it.
    expect(shadowed(exact(2, 'yes'), exact(3, 'yes', { expression: 'age > 18' }))).toHaveLength(1);
    // The same regex twice.
    expect(shadowed(exact(2, '^y', { match: 'regex' }), exact(3, ' ^y', { match: 'regex' }))).toHaveLength(1);
    expect(shadowed(exact(2, '^y', { match: 'regex' }), exact(3, '^ye', { match: 'regex' }))).toEqual([]);
  });

  it('shadowed-condition: a regex that matches every message takes every later condition and the "any reply" arrow', () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      { id: 3, kind: 'state' },
      { id: 4, kind: 'state' },
      { id: 5, kind: 'state' },
    ];
    const shadowedAfter = (pattern: string) =>
      targets(
        rule(
          'shadowed-condition',
          bot(blocks, [
            any(1, 1, 2),
            matching(2, 2, 3, { alternatives: pattern, match: 'regex' }),
            reply(3, 2, 4, 'yes'),
            any(4, 2, 5),
          ]),
        ),
      );
    const both = [
      { type: 'arrow', id: 3 },
      { type: 'arrow', id: 4 },
    ];
    for (const pattern of ['.*', '^', '(?s).*', 'x?', 'yes|', '$', '(?m)^', '\\b|\\B'])
      expect(shadowedAfter(pattern), pattern).toEqual(both);
    // These miss some message: a text with a line break, an empty one, a text with no word.
    for (const pattern of ['^.*$', '.+', '^$', 'a*b', '\\b', '(', ' '])
      expect(shadowedAfter(pattern), pattern).toEqual([]);
    const [problem] = rule(
      'shadowed-condition',
      bot(blocks, [any(1, 1, 2), matching(2, 2, 3, { alternatives: '.*', match: 'regex' }), any(4, 2, 5)]),
    );
    expect(problem.message).toContain('(its regex matches every message)');
  });

  it('shadowed-condition: start triggers come first, on every message; quick replies last', () => {
    const schema = bot(
      [
        { id: 2, kind: 'start', trigger: { alternatives: '/start;restart' } },
        { id: 3, kind: 'state' },
        { id: 4, kind: 'start', trigger: { alternatives: 'RESTART' } },
        { id: 5, kind: 'not_state_condition', trigger: { alternatives: '/start' } },
        { id: 6, kind: 'not_state_condition', trigger: { alternatives: 'help' } },
        { id: 7, kind: 'not_state_condition', trigger: { alternatives: 'help', match: 'keywords' } },
        { id: 8, kind: 'start', trigger: { alternatives: 'restart', expression: 'vip' } },
        { id: 9, kind: 'not_state_condition', trigger: { alternatives: ' HELP' } },
      ],
      [any(1, 1, 3), reply(2, 3, 1, 'restart'), reply(3, 3, 1, 'menu')],
    );
    const problems = rule('shadowed-condition', schema);
    expect(targets(problems)).toEqual([
      { type: 'arrow', id: 2 },
      { type: 'block', id: 4 },
      { type: 'block', id: 5 },
      { type: 'block', id: 8 },
      { type: 'block', id: 9 },
    ]);
    expect(problems[0].message).toContain("start block #2's trigger is checked first, on every message");
    expect(problems[1].message).toContain(
      "This start block's trigger never selects it: start block #2's trigger is checked before it",
    );
    // Its own comparison expression only narrows it; the quick reply #6 takes "help" before #9.
    expect(problems[4].message).toContain(
      "This quick reply's trigger never selects it: quick reply #6's trigger is checked before it",
    );
  });

  it('button-without-arrow: a reply button no arrow, start trigger or quick reply answers', () => {
    const schema = bot(
      [
        {
          id: 2,
          kind: 'state',
          buttons: [
            { text: 'Yes' },
            { text: 'No' },
            { text: 'Site', url: 'https://x.test' },
            { text: 'Pay', type: 'inline', callback_data: 'pay' },
            { text: 'Help' },
            { text: 'Again' },
            { text: 'Day #{n}' },
          ],
        },
        { id: 3, kind: 'state' },
        { id: 4, kind: 'not_state_condition', trigger: { alternatives: 'help' } },
        { id: 5, kind: 'start', trigger: { alternatives: 'again' } },
      ],
      [any(1, 1, 2), reply(2, 2, 3, 'yes'), reply(3, 2, 3, 'pay'), any(4, 4, 3)],
    );
    const problems = rule('button-without-arrow', schema);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: 'warning', target: { type: 'block', id: 2 } });
    expect(problems[0].message).toBe(
      'Pressing the button "No" gets no answer: no condition of this block\'s arrows, no start trigger and no quick reply matches it. Draw an arrow from the button (a condition with its text), or remove the button.',
    );
    // An "any reply" arrow answers every button (a button can be a suggested reply).
    const anyReply = bot(
      [
        { id: 2, kind: 'state', buttons: [{ text: 'No' }] },
        { id: 3, kind: 'state' },
      ],
      [any(1, 1, 2), any(2, 2, 3)],
    );
    expect(rule('button-without-arrow', anyReply)).toEqual([]);
  });

  it("button-without-arrow: a grey block's buttons are answered by the block the client stays in", () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      {
        id: 3,
        kind: 'not_state',
        buttons: { hint: 'Pick', buttons: [{ text: 'Prices' }, { text: 'Other' }] },
      },
      { id: 4, kind: 'state' },
      { id: 5, kind: 'not_state_condition', trigger: { alternatives: 'help' }, buttons: [{ text: 'Other' }] },
    ];
    const schema = bot(blocks, [any(1, 1, 2), reply(2, 2, 4, 'prices'), any(3, 2, 3), go(4, 5, 3)]);
    // Block 3 is sent from #2 (the client stays there) and after quick reply #5 (the client may be anywhere).
    expect(rule('button-without-arrow', schema)).toEqual([]);
    const fromState = bot(blocks.slice(0, 3), [any(1, 1, 2), reply(2, 2, 4, 'prices'), any(3, 2, 3)]);
    expect(rule('button-without-arrow', fromState).map((p) => p.message)).toEqual([
      'Pressing the button "Other" only gets the "any reply" answer (arrow #3 into grey block #3, the client staying where it was): no condition of the arrows of block #2 (where the client is when this message is sent), no start trigger and no quick reply matches it. Draw an arrow from the button (a condition with its text), or remove the button.',
    ]);
  });

  it('unexpected-text-unanswered: a block whose arrows all have conditions answers nothing else', () => {
    const blocks: BlockInput[] = [
      { id: 2, kind: 'state' },
      { id: 3, kind: 'not_state', text: "Sorry, I didn't understand." },
      { id: 4, kind: 'close_deal' },
    ];
    const schema = bot(blocks, [reply(1, 1, 2, 'go'), reply(2, 2, 4, 'yes'), timer(3, 4, 2)]);
    const problems = rule('unexpected-text-unanswered', schema);
    expect(targets(problems)).toEqual([
      { type: 'block', id: 1 },
      { type: 'block', id: 2 },
    ]);
    expect(problems[0].severity).toBe('warning');
    expect(problems[0].message).toContain('Add an "any reply" arrow from it to a grey not_state block');
    // The fix: an "any reply" arrow to a not_state block; or a regex that takes every message.
    const fixed = bot(blocks, [
      reply(1, 1, 2, 'go'),
      any(4, 1, 3),
      reply(2, 2, 4, 'yes'),
      matching(5, 2, 3, { alternatives: '.*', match: 'regex' }),
    ]);
    expect(rule('unexpected-text-unanswered', fixed)).toEqual([]);
    // A quick reply that takes every message answers everywhere.
    const catchAll = bot(
      [...blocks, { id: 5, kind: 'not_state_condition', trigger: { alternatives: '.*', match: 'regex' } }],
      [reply(1, 1, 2, 'go'), reply(2, 2, 4, 'yes')],
    );
    expect(rule('unexpected-text-unanswered', catchAll)).toEqual([]);
  });

  it('function-needs-plan: an in-flow function on a plan that does not allow it, where it is written', () => {
    const schema = bot(
      [
        { id: 2, kind: 'state', formula: 'x = len(name)\nask_operator()\nask_operator()' },
        { id: 3, kind: 'state', formula: 'y = 1' },
      ],
      [
        any(1, 1, 2),
        matching(2, 2, 3, {
          alternatives: 'ok',
          expression: "requests_get('https://x.test')['status'] == 200",
        }),
      ],
    );
    const problems = lintBot(schema, { plan: 'free' }).filter((p) => p.rule === 'function-needs-plan');
    expect(problems.map((p) => [p.target, p.message])).toEqual([
      [
        { type: 'block', id: 2 },
        "ask_operator() needs the business or AI plan; this project is on the free plan (change it in Settings, Plan): the call fails when it runs, and the block's message is not sent.",
      ],
      [
        { type: 'arrow', id: 2 },
        'requests_get() needs the business or AI plan; this project is on the free plan (change it in Settings, Plan): the call fails when it runs.',
      ],
    ]);
    expect(problems[0].severity).toBe('warning');
    for (const plan of ['business', 'ai'] as const)
      expect(lintBot(schema, { plan }).filter((p) => p.rule === 'function-needs-plan')).toEqual([]);
    expect(rule('function-needs-plan', schema)).toEqual([]);
  });

  it('ai-needs-plan: a block with an AI step or choice on a plan without AI', () => {
    const schema = bot([
      { id: 2, kind: 'state', ai: { prompt: 'Suggest a dish', fallbackBlockId: 3 } },
      { id: 3, kind: 'state', ai: { chooseArrow: true } },
    ]);
    const problems = lintBot(schema, { plan: 'business' }).filter((p) => p.rule === 'ai-needs-plan');
    expect(problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        target: { type: 'block', id: 2 },
        message: expect.stringContaining(
          "the block's AI step never answers, the client goes to its fallback block",
        ),
      }),
      expect.objectContaining({
        target: { type: 'block', id: 3 },
        message: expect.stringContaining('choice of arrow never answers'),
      }),
    ]);
    expect(lintBot(schema, { plan: 'ai' }).filter((p) => p.rule === 'ai-needs-plan')).toEqual([]);
    expect(rule('ai-needs-plan', schema)).toEqual([]);
  });

  it('ai-fallback-missing: an AI fallback block that is not in the bot', () => {
    const schema = bot([{ id: 2, kind: 'state', ai: { prompt: 'Hi', fallbackBlockId: 40 } }]);
    expect(rule('ai-fallback-missing', schema)).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringContaining('#40 does not exist') }),
    ]);
  });

  it('variables an AI step stores are set; #{secret.NAME} is set outside the bot', () => {
    const schema = bot([
      {
        id: 2,
        kind: 'state',
        text: '#{suggestion} #{city}',
        request: { type: 'GET', url: 'https://x.example/?k=#{secret.KEY}' },
        ai: { prompt: 'Hi', saveInto: 'suggestion', fields: [{ variable: 'city', type: 'string' }] },
      },
    ]);
    expect(rule('placeholder-never-set', schema)).toEqual([]);
  });

  it('unknown-list: a list id of the actions the project no longer has, only when the lists are known', () => {
    const schema = bot([
      { id: 2, kind: 'state', actions: { addToLists: [3, 9], removeFromLists: [9, 11] } },
      { id: 3, kind: 'state', actions: { addToLists: [3], removeFromLists: [] } },
    ]);
    const problems = lintBot(schema, { listIds: [3] }).filter((p) => p.rule === 'unknown-list');
    expect(problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        target: { type: 'block', id: 2 },
        message: expect.stringContaining('lists 9, 11, which no longer exist'),
      }),
    ]);
    expect(lintBot(schema).filter((p) => p.rule === 'unknown-list')).toEqual([]);
  });

  it("the demo bot (the empty canvas's template) has no problems", () => {
    const demo = botSchemaSchema.parse(demoBotSchema);
    expect(lintBot(demo, { plan: 'free', messengers: [TG_CAPABILITIES] })).toEqual([]);
  });

  it('has a test above for every rule, and sorts errors first', () => {
    expect(Object.keys(LINT_RULES)).toHaveLength(26);
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

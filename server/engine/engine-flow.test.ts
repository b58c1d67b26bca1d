import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHarness } from './testing/engine-harness';

let h: EngineHarness;
beforeAll(async () => {
  h = await EngineHarness.create();
});
afterAll(() => h?.close());

const start = (id: number, text: string, alternatives = '') => ({
  id,
  kind: 'start' as const,
  text,
  trigger: { alternatives, match: 'exact' as const },
});

describe('routing an incoming message', () => {
  it('greets a new client from the entry block and substitutes variables', async () => {
    const bot = await h.bot({
      blocks: [start(1, 'Hi #{name}! Client #{client_id}, block #{message_id}.')],
      arrows: [],
    });
    const [reply] = await bot.say('hello');
    const client = await bot.clientRow();
    expect(reply).toBe(`Hi Tester tester! Client ${client.id}, block .`);
    expect(client.currentBlockId).toBe(1);
  });

  it('stores a message holding half an emoji (a lone surrogate) with U+FFFD in its place', async () => {
    // JSON lets a client send one ("\ud83d"); the event's log and its messages are stored all the same.
    const bot = await h.bot({ blocks: [start(1, 'Got #{question}')], arrows: [] });
    await bot.say('half \ud83d here');
    expect(await bot.transcript()).toEqual(['> half \ufffd here', '< Got half \ufffd here']);
  });

  it('submits variables an event brought holding half an emoji, with U+FFFD in its place', async () => {
    // A callback's extra parameters become deal variables; a submission stores them as jsonb.
    const bot = await h.bot({
      blocks: [start(1, 'hi'), { id: 2, kind: 'data_transfer', text: 'noted #{note}' }],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
    });
    await bot.say('hi');
    const result = await bot.event({ type: 'message', text: 'x', variables: { note: 'a\ud83db' } });
    expect(result.messages.map((m) => m.text)).toEqual(['noted a\ufffdb']);
    const submission = await bot.db.submission.findFirstOrThrow({ where: { projectId: bot.projectId } });
    expect(submission.variables).toEqual({ note: 'a\ufffdb' });
  });

  it('checks start triggers first, then arrows (conditions before unconditional), then quick replies', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'Welcome'),
        start(2, 'Restarted', '/start'),
        { id: 3, kind: 'state', text: 'Yes branch' },
        { id: 4, kind: 'state', text: 'Anything else' },
        {
          id: 5,
          kind: 'not_state_condition',
          text: 'Our hours: 9-18',
          trigger: { alternatives: 'hours;opening hours', match: 'exact' },
        },
      ],
      arrows: [
        { id: 1, from: 1, to: 4, kind: 'unconditional' },
        { id: 2, from: 1, to: 3, kind: 'condition', condition: { alternatives: 'yes;sure' } },
      ],
    });
    expect(await bot.say('hi')).toEqual(['Welcome']);
    expect(await bot.say('SURE')).toEqual(['Yes branch']);
    expect(await bot.say('/start')).toEqual(['Restarted']);
    // Block 2 has no arrows: a quick reply answers, the client stays.
    expect(await bot.say('hours')).toEqual(['Our hours: 9-18']);
    expect((await bot.clientRow()).currentBlockId).toBe(2);
    // Nothing matches: nothing is sent, the message is still stored.
    expect(await bot.say('random words')).toEqual([]);
    expect((await bot.transcript()).at(-1)).toBe('> random words');
    expect(await bot.log('no_match')).toHaveLength(1);
    // The unconditional arrow fires on any reply.
    await bot.say('/start');
    const other = bot.client('second');
    expect(await other.say('x')).toEqual(['Welcome']);
    expect(await other.say('whatever')).toEqual(['Anything else']);
  });

  it('matches keywords with groups, fuzzy above 70 %, regex, and ignores listed strings', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'menu'),
        { id: 2, kind: 'not_state', text: 'keywords' },
        { id: 3, kind: 'not_state', text: 'fuzzy' },
        { id: 4, kind: 'not_state', text: 'regex' },
        { id: 5, kind: 'not_state', text: 'ignored' },
      ],
      arrows: [
        {
          id: 1,
          from: 1,
          to: 2,
          kind: 'condition',
          condition: { alternatives: '(price plan|tariff) (buy|connect)', match: 'keywords' },
        },
        { id: 2, from: 1, to: 3, kind: 'condition', condition: { alternatives: 'delivery', match: 'fuzzy' } },
        {
          id: 3,
          from: 1,
          to: 4,
          kind: 'condition',
          condition: { alternatives: '^order\\s+\\d+$', match: 'regex' },
        },
        {
          id: 4,
          from: 1,
          to: 5,
          kind: 'condition',
          condition: { alternatives: 'ok', match: 'exact', ignore: 'please;!' },
        },
      ],
    });
    await bot.say('start');
    expect(await bot.say('I would like to buy the tariff')).toEqual(['keywords']);
    expect(await bot.say('delivry')).toEqual(['fuzzy']);
    expect(await bot.say('order 12')).toEqual(['regex']);
    expect(await bot.say('ok please!')).toEqual(['ignored']);
    // not_state blocks answer but leave the client where it was.
    expect((await bot.clientRow()).currentBlockId).toBe(1);
  });

  it('requires the comparison expression of a condition to hold too', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'How old are you?'),
        { id: 2, kind: 'state', text: 'Adult' },
        { id: 3, kind: 'state', text: 'Too young' },
      ],
      arrows: [
        {
          id: 1,
          from: 1,
          to: 2,
          kind: 'condition',
          condition: { alternatives: '.*', match: 'regex', expression: 'int(question) >= 18' },
        },
        { id: 2, from: 1, to: 3, kind: 'unconditional' },
      ],
    });
    await bot.say('hi');
    expect(await bot.say('21')).toEqual(['Adult']);
    const young = bot.client('young');
    await young.say('hi');
    expect(await young.say('12')).toEqual(['Too young']);
  });

  it('stores the reply of a data-collection arrow, in the deal or on the client profile', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'Your name?'),
        { id: 2, kind: 'state', text: 'E-mail, #{client.first_name}?' },
        { id: 3, kind: 'state', text: 'Thanks, #{email}' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'unconditional', collectInto: 'client.first_name' },
        { id: 2, from: 2, to: 3, kind: 'unconditional', collectInto: 'email' },
      ],
    });
    await bot.say('hi');
    expect(await bot.say('Ann')).toEqual(['E-mail, Ann?']);
    expect(await bot.say('ann@example.com')).toEqual(['Thanks, ann@example.com']);
    expect(await bot.variables()).toEqual({
      deal: { email: 'ann@example.com' },
      client: { first_name: 'Ann' },
    });
  });

  it('adds "show as button" arrows as reply buttons of their block', async () => {
    const bot = await h.bot({
      blocks: [
        { ...start(1, 'Pick'), buttons: [{ type: 'inline', text: 'Site', url: 'https://example.com' }] },
        { id: 2, kind: 'state', text: 'A' },
      ],
      arrows: [
        {
          id: 1,
          from: 1,
          to: 2,
          kind: 'condition',
          condition: { alternatives: 'Option A;a' },
          showAsButton: true,
        },
      ],
    });
    const result = await bot.event({ type: 'message', text: 'hi' });
    expect(result.messages[0].buttons).toEqual([
      { type: 'inline', text: 'Site', url: 'https://example.com' },
      { type: 'reply', text: 'Option A' },
    ]);
    expect(await bot.say('Option A')).toEqual(['A']);
  });
});

describe('entering a block', () => {
  it('runs the formula before the text; a failing line writes its error and the rest still run', async () => {
    const bot = await h.bot({
      blocks: [
        {
          ...start(1, 'Total #{total}, tax #{tax}, bad: #{broken}'),
          formula: 'price = 100\nbroken = 1 / 0\ntax = price * 0.2\ntotal = price + tax',
        },
      ],
      arrows: [],
    });
    const [reply] = await bot.say('hi');
    expect(reply).toMatch(/^Total 120, tax 20, bad: \S+/);
    const errors = await bot.log('formula_error');
    expect(errors).toEqual([expect.objectContaining({ blockId: 1, line: 2 })]);
    expect((await bot.variables()).deal).toMatchObject({ price: '100', tax: '20', total: '120' });
    // The log says what the formula set, the failed line's error text included.
    const [ran] = await bot.log('formula');
    expect(ran).toMatchObject({ blockId: 1, set: { price: '100', tax: '20', total: '120' } });
    expect((ran.set as Record<string, string>).broken).toMatch(/division by zero/);
  });

  it('sends nothing for an empty text or #{none}, but sends attachments alone', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, '#{none}'),
        {
          id: 2,
          kind: 'state',
          text: '',
          attachments: [{ type: 'image', url: 'https://cdn.example.com/#{pic}.png' }],
          formula: "pic = 'cat'",
        },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'unconditional' }],
    });
    expect(await bot.say('hi')).toEqual([]);
    const result = await bot.event({ type: 'message', text: 'next' });
    expect(result.messages).toEqual([
      expect.objectContaining({
        text: '',
        attachments: [{ type: 'image', url: 'https://cdn.example.com/cat.png' }],
      }),
    ]);
  });

  it('close_deal submits and discards the deal variables; data_transfer submits and keeps them', async () => {
    const bot = await h.bot({
      blocks: [
        { ...start(1, 'order?'), formula: "item = 'pizza'" },
        { id: 2, kind: 'data_transfer', text: 'noted #{item}' },
        { id: 3, kind: 'close_deal', text: 'done #{item}' },
        { id: 4, kind: 'state', text: 'after: [#{item}] order #{order_id}' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'unconditional' },
        { id: 2, from: 2, to: 3, kind: 'unconditional' },
        { id: 3, from: 3, to: 4, kind: 'unconditional' },
      ],
    });
    await bot.say('hi');
    const firstDeal = (await bot.db.deal.findFirstOrThrow({ where: { projectId: bot.projectId } })).id;
    expect(await bot.say('a')).toEqual(['noted pizza']);
    expect(await bot.say('b')).toEqual(['done pizza']);
    const after = await bot.say('c');
    expect(after[0]).toMatch(/^after: \[\] order \d+$/);
    expect(after[0]).not.toContain(`order ${firstDeal}`);
    const submissions = await bot.db.submission.findMany({
      where: { projectId: bot.projectId },
      orderBy: { id: 'asc' },
    });
    expect(submissions.map((s) => [s.blockId, s.variables, s.kept])).toEqual([
      [2, { item: 'pizza' }, true],
      [3, { item: 'pizza' }, false],
    ]);
    // No webhook URL: no outbox row for the submissions (nor for the simulator's messages).
    expect(await bot.db.outbox.count({ where: { projectId: bot.projectId } })).toBe(0);
    expect((await bot.db.deal.findUniqueOrThrow({ where: { id: firstDeal } })).closedAt).not.toBeNull();
  });

  it('runs block actions: CRM state and lists', async () => {
    const project = await h.bot({ blocks: [start(1, 'hi')], arrows: [] });
    const state = await project.db.crmState.findFirstOrThrow({
      where: { projectId: project.projectId, name: 'Won' },
    });
    const list = await project.db.clientList.create({
      data: { projectId: project.projectId, name: 'Leads' },
    });
    const bot = await h.bot({
      blocks: [{ ...start(1, 'hi'), actions: { crmStateId: state.id, addToLists: [list.id] } }],
      arrows: [],
    });
    // The state and list belong to another project: they are ignored here, and logged.
    await bot.say('x');
    expect(await bot.db.clientListMember.count({ where: { listId: list.id } })).toBe(0);
    expect(await bot.log('error')).toEqual([
      expect.objectContaining({
        message: `CRM state ${state.id} does not exist in this project. State ids are shown in the CRM funnel editor.`,
      }),
    ]);

    const same = await h.bot({ blocks: [start(1, 'hi')], arrows: [] });
    const ownState = await same.db.crmState.findFirstOrThrow({
      where: { projectId: same.projectId, name: 'Won' },
    });
    const ownList = await same.db.clientList.create({ data: { projectId: same.projectId, name: 'Leads' } });
    await same.db.block.update({
      where: { projectId_id: { projectId: same.projectId, id: 1 } },
      data: { actions: { crmStateId: ownState.id, addToLists: [ownList.id], removeFromLists: [] } },
    });
    await same.db.project.update({
      where: { id: same.projectId },
      data: { schemaRevision: { increment: 1 } },
    });
    await same.say('x');
    const client = await same.clientRow();
    expect(await same.db.clientListMember.count({ where: { listId: ownList.id, clientId: client.id } })).toBe(
      1,
    );
    expect((await same.db.deal.findFirstOrThrow({ where: { clientId: client.id } })).stateId).toBe(
      ownState.id,
    );
  });

  it('never runs comment blocks', async () => {
    const bot = await h.bot({
      blocks: [start(1, 'hi'), { id: 2, kind: 'comment', text: 'a note' }],
      arrows: [],
    });
    expect(await bot.say('x')).toEqual(['hi']);
    // A note is not a block the bot can enter, even by id.
    await expect(bot.event({ type: 'enter_block', blockId: 2, messageFromOutside: 1 })).rejects.toThrow(
      'Block 2 does not exist',
    );
  });
});

describe('timers', () => {
  it('schedules a timer arrow and fires it when due; cancelled when the client left', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'hi'),
        { id: 2, kind: 'state', text: 'Still there?' },
        { id: 3, kind: 'state', text: 'moved on' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 10, unit: 'minutes' }, cancelIfLeft: true },
        { id: 2, from: 1, to: 3, kind: 'unconditional' },
      ],
    });
    await bot.say('hi');
    expect(h.pendingJobs()).toHaveLength(1);
    h.advance(10 * 60_000);
    await h.runDueJobs();
    expect((await bot.transcript()).at(-1)).toBe('< Still there?');

    const leaver = bot.client('leaver');
    await leaver.say('hi');
    await leaver.say('anything');
    h.advance(10 * 60_000);
    await h.runDueJobs();
    expect((await leaver.transcript()).at(-1)).toBe('< moved on');
    expect(await leaver.log('timer_cancelled')).toHaveLength(1);
  });

  it('runs 0-second timer chains in the same event and stops a loop with a clear log entry', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'one'),
        { id: 2, kind: 'not_state', text: 'two' },
        { id: 3, kind: 'not_state', text: 'three' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 0 } },
        { id: 2, from: 2, to: 3, kind: 'timer', timer: { delay: 0 } },
      ],
    });
    expect(await bot.say('go')).toEqual(['one', 'two', 'three']);

    const loop = await h.bot({
      blocks: [start(1, 'tick'), { id: 2, kind: 'not_state', text: 'tock' }],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 0 } },
        { id: 2, from: 2, to: 1, kind: 'timer', timer: { delay: 0 } },
      ],
    });
    const replies = await loop.say('go');
    expect(replies.length).toBe(50);
    expect(await loop.log('loop_guard')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('Stopped after 50 blocks') }),
    ]);
  });

  it('fires at a date and time in the project time zone, with variables; cancels other timers', async () => {
    const bot = await h.bot(
      {
        blocks: [
          { ...start(1, 'booked'), formula: "day = '03.03.2026'" },
          { id: 2, kind: 'not_state', text: 'reminder' },
          { id: 3, kind: 'not_state', text: 'other' },
        ],
        arrows: [
          { id: 1, from: 1, to: 3, kind: 'timer', timer: { delay: 1, unit: 'hours' }, cancelIfLeft: false },
          {
            id: 2,
            from: 1,
            to: 2,
            kind: 'timer',
            timer: { at: '#{day} 10:30' },
            cancelOtherTimers: true,
            cancelIfLeft: false,
          },
        ],
      },
      { timeZone: 'Europe/Berlin' },
    );
    await bot.say('hi');
    const pending = await bot.db.scheduledSend.findMany({
      where: { projectId: bot.projectId },
      orderBy: { id: 'asc' },
    });
    expect(pending.map((p) => p.status)).toEqual(['cancelled', 'pending']);
    // 10:30 in Berlin on 3 March is 09:30 UTC.
    expect(pending[1].runAt.toISOString()).toBe('2026-03-03T09:30:00.000Z');
  });

  /** Block 2 holds a one-hour reminder; 3 is another step; 'again' enters 2 while in it. */
  const reminderBot = (cancelIfLeft: boolean) =>
    h.bot({
      blocks: [
        start(1, 'menu'),
        { id: 2, kind: 'state', text: 'Pick a plan' },
        { id: 3, kind: 'state', text: 'Help' },
        { id: 4, kind: 'not_state', text: 'Still choosing?' },
      ],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: 'plans' } },
        { id: 2, from: 2, to: 4, kind: 'timer', timer: { delay: 1, unit: 'hours' }, cancelIfLeft },
        { id: 3, from: 2, to: 3, kind: 'condition', condition: { alternatives: 'help' } },
        { id: 4, from: 3, to: 2, kind: 'condition', condition: { alternatives: 'back' } },
        { id: 5, from: 2, to: 2, kind: 'condition', condition: { alternatives: 'again' } },
      ],
    });
  const timerRows = async (bot: Awaited<ReturnType<typeof reminderBot>>) =>
    bot.db.scheduledSend.findMany({
      where: { clientId: (await bot.clientRow()).id, kind: 'timer' },
      orderBy: { id: 'asc' },
    });
  const jobsOf = (bot: Awaited<ReturnType<typeof reminderBot>>) =>
    h.pendingJobs().filter((j) => j.data.projectId === bot.projectId);
  const reminders = async (bot: Awaited<ReturnType<typeof reminderBot>>) =>
    (await bot.transcript()).filter((line) => line === '< Still choosing?').length;

  it('cancels a "cancel if left" timer as the client leaves its block; coming back schedules one', async () => {
    const bot = await reminderBot(true);
    await bot.say('hi');
    await bot.say('plans');
    await bot.say('help');
    // Cancelled with the move, not at its time: its row and its job.
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['cancelled']);
    expect(jobsOf(bot)).toHaveLength(0);
    expect(await bot.log('timer_cancelled')).toMatchObject([
      { arrowId: 2, reason: 'the client left block #2' },
    ]);
    await bot.say('back');
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['cancelled', 'pending']);
    expect(jobsOf(bot)).toHaveLength(1);
    h.advance(60 * 60_000);
    await h.runDueJobs();
    expect(await reminders(bot)).toBe(1);
  });

  it('restarts the pending timer when the client enters its block again while still in it', async () => {
    const bot = await reminderBot(true);
    await bot.say('hi');
    await bot.say('plans');
    h.advance(40 * 60_000);
    await bot.say('again');
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['cancelled', 'pending']);
    expect(jobsOf(bot)).toHaveLength(1);
    // An hour after the first entry nothing fires; an hour after the second, one reminder.
    h.advance(30 * 60_000);
    await h.runDueJobs();
    expect(await reminders(bot)).toBe(0);
    h.advance(30 * 60_000);
    await h.runDueJobs();
    expect(await reminders(bot)).toBe(1);
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['cancelled', 'sent']);
  });

  it('keeps a timer without the option when the client leaves; entering again restarts it', async () => {
    const bot = await reminderBot(false);
    await bot.say('hi');
    await bot.say('plans');
    await bot.say('help');
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['pending']);
    h.advance(60 * 60_000);
    await h.runDueJobs();
    expect(await reminders(bot)).toBe(1);

    await bot.say('back');
    h.advance(10 * 60_000);
    await bot.say('help');
    await bot.say('back');
    // One pending timer per client and arrow: the second entry replaced the first's.
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['sent', 'cancelled', 'pending']);
    expect(jobsOf(bot)).toHaveLength(1);
  });

  it('never queues a "cancel if left" timer whose block the same event leaves', async () => {
    const bot = await h.bot({
      blocks: [
        start(1, 'menu'),
        { id: 2, kind: 'state', text: 'step' },
        { id: 3, kind: 'state', text: 'next' },
      ],
      arrows: [
        { id: 1, from: 1, to: 3, kind: 'timer', timer: { delay: 1, unit: 'hours' }, cancelIfLeft: true },
        { id: 2, from: 1, to: 2, kind: 'continue' },
      ],
    });
    expect(await bot.say('hi')).toEqual(['menu', 'step']);
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['cancelled']);
    expect(jobsOf(bot)).toHaveLength(0);
  });

  it('re-arms a timer that leads back to its own block, one pending at a time', async () => {
    const bot = await h.bot({
      blocks: [start(1, 'menu'), { id: 2, kind: 'state', text: 'ping' }],
      arrows: [
        { id: 1, from: 1, to: 2, kind: 'unconditional' },
        { id: 2, from: 2, to: 2, kind: 'timer', timer: { delay: 1, unit: 'hours' }, cancelIfLeft: true },
      ],
    });
    await bot.say('hi');
    await bot.say('go');
    for (let i = 0; i < 2; i++) {
      h.advance(60 * 60_000);
      await h.runDueJobs();
    }
    expect((await bot.transcript()).filter((line) => line === '< ping')).toHaveLength(3);
    expect((await timerRows(bot)).map((t) => t.status)).toEqual(['sent', 'sent', 'pending']);
  });
});

describe('variables', () => {
  it('reads deal, then client, then project; system variables are read-only', async () => {
    const bot = await h.bot({
      blocks: [
        {
          ...start(1, '#{x} #{client.x} #{project.shop} #{shop} #{y}'),
          formula: "client.x = 'c'\nx = 'd'\ny = shop\nname = 'hacker'",
        },
      ],
      arrows: [],
    });
    await bot.db.projectConstant.create({ data: { projectId: bot.projectId, name: 'shop', value: 'Shop' } });
    expect(await bot.say('hi')).toEqual(['d c Shop Shop Shop']);
    expect((await bot.log('formula_error'))[0]).toMatchObject({
      message: expect.stringContaining('system variable'),
    });
    expect((await bot.clientRow()).name).toBe('Tester tester');
  });

  it('refuses a value over 100,000 characters and writes nothing of it', async () => {
    const bot = await h.bot({
      blocks: [start(1, 'hi')],
      arrows: [],
    });
    await bot.say('hi');
    const result = await bot.event({
      type: 'message',
      text: 'again',
      variables: { long: 'y'.repeat(100_001), short: 'ok' },
    });
    expect(result.log.some((l) => l.kind === 'variable_error')).toBe(true);
    const vars = await bot.variables();
    expect(vars.deal.long).toBeUndefined();
    expect(vars.deal.short).toBe('ok');
  });
});

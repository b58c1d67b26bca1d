import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';
import { sendTime } from './timeout';

let h: EngineHarness;
let api: FakeApi;
beforeAll(async () => {
  h = await EngineHarness.create();
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const start = (text: string, formula = '') => ({
  id: 1,
  kind: 'start' as const,
  text,
  formula,
  trigger: { alternatives: '' },
});

describe('message() timeout rules', () => {
  const now = new Date('2026-03-02T09:00:00Z');
  it('delays up to 3600 s, caps larger delays at one hour, sends negative and past at once, schedules dates', () => {
    expect(sendTime(30, now, 'UTC')?.toISOString()).toBe('2026-03-02T09:00:30.000Z');
    expect(sendTime('3600', now, 'UTC')?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(sendTime(99999, now, 'UTC')?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(sendTime(-5, now, 'UTC')).toBeNull();
    expect(sendTime(null, now, 'UTC')).toBeNull();
    expect(sendTime('02.03.2026 12:15', now, 'Europe/Berlin')?.toISOString()).toBe(
      '2026-03-02T11:15:00.000Z',
    );
    expect(sendTime('01.03.2026 12:15', now, 'UTC')).toBeNull();
    expect(() => sendTime('tomorrow', now, 'UTC')).toThrow('dd.mm.yyyy hh:mm');
  });
});

describe('in-flow functions', () => {
  it('message() with an empty text and message_id runs that block and moves the client', async () => {
    const bot = await h.bot({
      blocks: [
        start('first', "message(client_id, '', 3)"),
        { id: 3, kind: 'state', text: 'third #{x}', formula: 'x = 7' },
      ],
      arrows: [],
    });
    expect(await bot.say('hi')).toEqual(['first', 'third 7']);
    expect((await bot.clientRow()).currentBlockId).toBe(3);
  });

  it('message() with a text and a timeout schedules it; it is sent once when due', async () => {
    const bot = await h.bot({
      blocks: [start('ok', "message(client_id, 'later #{name}', None, 60)")],
      arrows: [],
    });
    expect(await bot.say('hi')).toEqual(['ok']);
    h.advance(60_000);
    await h.runDueJobs();
    expect((await bot.transcript()).slice(-1)).toEqual(['< later Tester tester']);
    // The same send coming due twice (a retried job) sends nothing twice.
    const send = await bot.db.scheduledSend.findFirstOrThrow({ where: { projectId: bot.projectId } });
    await bot.db.scheduledSend.update({ where: { id: send.id }, data: { status: 'pending' } });
    await bot.event({ type: 'scheduled', scheduledSendId: send.id });
    expect((await bot.transcript()).filter((t) => t.startsWith('< later'))).toHaveLength(1);
  });

  it('callback() reaches another client as a system message and refuses the client itself', async () => {
    const bot = await h.bot({
      blocks: [
        start('hello'),
        { id: 2, kind: 'start', text: 'paid!', trigger: { alternatives: 'payment ok' } },
        {
          id: 3,
          kind: 'start',
          text: 'pinging',
          trigger: { alternatives: 'ping' },
          formula: "callback(target, 'payment ok')\nself = callback(client_id, 'x')",
        },
      ],
      arrows: [],
    });
    const receiver = bot.client('receiver');
    await receiver.say('hi');
    const receiverId = (await receiver.clientRow()).id;
    const sender = bot.client('sender');
    await sender.event({ type: 'message', text: 'ping', variables: { target: String(receiverId) } });
    expect((await receiver.transcript()).slice(-2)).toEqual(['> payment ok', '< paid!']);
    const incoming = await bot.db.message.findFirstOrThrow({
      where: { clientId: receiverId, text: 'payment ok' },
    });
    expect(incoming.messageFromOutside).toBe(3);
    expect((await sender.log('formula_error'))[0].message).toMatch(/cannot send to the client itself/);
  });

  it('in-flow functions need the business or AI plan', async () => {
    const bot = await h.bot(
      { blocks: [start('#{r}', 'r = get_block_name_by_id(1)')], arrows: [] },
      { plan: 'free' },
    );
    await bot.say('hi');
    expect((await bot.log('formula_error'))[0].message).toMatch(/business or AI plan.*free plan/);
  });

  it('requests_* give status, json, text or {status, data}; headers, params, data, json_data, auth and 0 to skip it', async () => {
    const bot = await h.bot({
      blocks: [
        start(
          's=#{s} first=#{first} t=#{t} whole=#{whole_status}',
          [
            `base = '${api.url}'`,
            "s = requests_get(base + '/json', 'status')",
            "j = requests_get(base + '/json', 'json')",
            "first = j['data']['items'][0]['name']",
            "t = requests_get(base + '/text', 'text')",
            "whole = requests_get(base + '/json')",
            "whole_status = whole['status']",
            "p = requests_post(base + '/echo', 'json', {'x-token': 'abc'}, None, {'a': 1}, ['u', 'p'])",
            "pb = p['body']\npa = p['auth']\npt = p['token']",
            "f = requests_put(base + '/echo', 'json', None, {'k': 'v'}, 0, None, '1')",
            "fb = f['body']",
            "g = requests_get(base + '/echo', 'json', None, {'q': 'a b'})",
            "gp = g['path']",
          ].join('\n'),
        ),
      ],
      arrows: [],
    });
    expect(await bot.say('hi')).toEqual(['s=200 first=Pizza t=plain reply whole=200']);
    const vars = (await bot.variables()).deal;
    expect(JSON.parse(vars.pb)).toEqual({ a: 1 });
    expect(vars.pa).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(vars.pt).toBe('abc');
    expect(JSON.parse(vars.fb)).toEqual({ k: 'v' });
    expect(vars.gp).toBe('/echo?q=a+b');
    expect(await bot.log('formula_error')).toEqual([]);
  });

  it('get_client_id_by_platform_id returns None when no client matches; get_block_name_by_id names blocks', async () => {
    const bot = await h.bot({
      blocks: [
        {
          ...start('#{found}|#{none_found}|#{bname}'),
          formula:
            "found = get_client_id_by_platform_id(99, 'user:other')\nnone_found = get_client_id_by_platform_id(99, 'nobody')\nbname = get_block_name_by_id(2)",
        },
        { id: 2, kind: 'state', name: 'Checkout', text: '' },
      ],
      arrows: [],
    });
    await bot.client('other').say('x');
    const otherId = (await bot.client('other').clientRow()).id;
    const replies = await bot.say('hi');
    expect(replies).toEqual([`${otherId}||Checkout`]);
  });

  it('CRM and list functions work on the current client', async () => {
    const bot = await h.bot({ blocks: [start('hi')], arrows: [] });
    const list = await bot.db.clientList.create({ data: { projectId: bot.projectId, name: 'VIP' } });
    // An open stage: won and lost close the deal (docs/crm.md), which discards its variables.
    const won = await bot.db.crmState.findFirstOrThrow({
      where: { projectId: bot.projectId, name: 'In progress' },
    });
    const withFunctions = await h.bot({ blocks: [start('hi')], arrows: [] });
    expect(withFunctions.projectId).not.toBe(bot.projectId);
    await bot.db.block.update({
      where: { projectId_id: { projectId: bot.projectId, id: 1 } },
      data: {
        text: '#{sid} #{before} #{after} #{size}',
        formula: `sid = get_state_id('in progress')\nchange_state(sid)\nbefore = inlist(${list.id})\nadd_to_list(${list.id})\nafter = inlist(${list.id})\nsize = list_size(${list.id})`,
      },
    });
    await bot.db.project.update({ where: { id: bot.projectId }, data: { schemaRevision: { increment: 1 } } });
    expect(await bot.say('x')).toEqual([`${won.id} False True 1`]);
    const client = await bot.clientRow();
    expect((await bot.db.deal.findFirstOrThrow({ where: { clientId: client.id } })).stateId).toBe(won.id);
  });
});

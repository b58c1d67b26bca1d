import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES } from '@/lib/client-display';
import { MAX_IMPORT_ROWS } from '@/lib/lists/list-csv';
import { clientsCsvRows } from '@/server/contacts/list-http';
import { importListMembers } from '@/server/contacts/list-import';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { csvResponse } from '@/server/downloads/csv-response';
import { signedInCaller } from './testing/signed-in';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A project of its own owner, with an operator and `count` Telegram clients (c0, c1, ...). */
async function setup(tag: string, count = 6) {
  const owner = await signedInCaller(tdb.prisma, `owner-${tag}@example.com`);
  const project = await owner.project.create({ name: tag, timeZone: 'UTC', withDemoBot: false });
  const operator = await signedInCaller(tdb.prisma, `op-${tag}@example.com`);
  await tdb.prisma.projectMember.create({
    data: {
      projectId: project.id,
      userId: `u-op-${tag}@example.com`,
      email: `op-${tag}@example.com`,
      role: 'operator',
    },
  });
  const clients = [];
  for (let i = 0; i < count; i++)
    clients.push(
      await tdb.prisma.client.create({
        data: {
          projectId: project.id,
          clientType: CLIENT_TYPES.tg,
          groupId: 'shop_bot',
          platformId: `${tag}-${i}`,
          name: `c${i}`,
          tag: i % 2 ? 'odd' : 'even',
        },
      }),
    );
  await tdb.prisma.clientVariable.create({
    data: {
      projectId: project.id,
      clientId: clients[0]!.id,
      name: 'phone',
      value: '+7 (900) 123-45-67',
      valueKey: '+7 (900) 123-45-67',
    },
  });
  return { owner, operator, projectId: project.id, ids: clients.map((c) => c.id) };
}

describe('lists through the web app', () => {
  it('lets an operator create, rename, fill by ids and by filter, count and delete lists; names are unique', async () => {
    const { operator, projectId, ids } = await setup('ops');
    const vip = await operator.lists.create({ projectId, name: '  VIP ' });
    expect(vip.name).toBe('VIP');
    await expect(operator.lists.create({ projectId, name: 'vip' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(`id ${vip.id}`),
    });
    await expect(operator.lists.create({ projectId, name: '   ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const renamed = await operator.lists.rename({ projectId, listId: vip.id, name: 'Buyers' });
    expect(renamed.name).toBe('Buyers');

    expect(
      (await operator.lists.addClients({ projectId, listId: vip.id, clientIds: ids.slice(0, 2) })).changed,
    ).toBe(2);
    // By filter: the odd-tagged clients (1, 3, 5); 1 was already in.
    expect(await operator.lists.countMatching({ projectId, filter: { tag: 'odd' } })).toBe(3);
    expect(
      (await operator.lists.addMatching({ projectId, listId: vip.id, filter: { tag: 'odd' } })).changed,
    ).toBe(2);
    expect(await operator.lists.all({ projectId })).toEqual([
      expect.objectContaining({ id: vip.id, members: 4 }),
    ]);

    // The list filter: in and not in.
    const inList = await operator.clients.search({ projectId, listId: vip.id });
    expect(inList.clients.map((c) => c.id).sort()).toEqual([ids[0], ids[1], ids[3], ids[5]].sort());
    const outList = await operator.clients.search({ projectId, notListId: vip.id });
    expect(outList.clients.map((c) => c.id).sort()).toEqual([ids[2], ids[4]].sort());

    expect(
      (await operator.lists.removeMatching({ projectId, listId: vip.id, filter: { tag: 'even' } })).changed,
    ).toBe(1);
    expect(
      (await operator.lists.removeClients({ projectId, listId: vip.id, clientIds: [ids[1]!] })).changed,
    ).toBe(1);

    const csv = await csvResponse(
      'list.csv',
      clientsCsvRows(tdb.prisma, projectId, { listId: vip.id }),
    ).text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'client_id,name,messenger,client_type,platform_id,group_id,phone,email,tag,created_at,last_message_at',
    );
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([ids[3], ids[5]]);

    expect(await operator.lists.delete({ projectId, listId: vip.id })).toEqual({ members: 2 });
    expect(await operator.lists.all({ projectId })).toEqual([]);
    expect(await tdb.prisma.client.count({ where: { projectId } })).toBe(6);
  });

  it('keeps each project to its own lists and clients', async () => {
    const a = await setup('iso-a', 2);
    const b = await setup('iso-b', 2);
    const listA = await a.owner.lists.create({ projectId: a.projectId, name: 'A' });
    const listB = await b.owner.lists.create({ projectId: b.projectId, name: 'B' });
    const calls = [
      () => b.owner.lists.all({ projectId: a.projectId }),
      () => b.owner.lists.delete({ projectId: a.projectId, listId: listA.id }),
      () => b.owner.lists.addMatching({ projectId: a.projectId, listId: listA.id, filter: {} }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Another project's list or clients, through one's own project.
    await expect(
      b.owner.lists.rename({ projectId: b.projectId, listId: listA.id, name: 'x' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(b.owner.lists.delete({ projectId: b.projectId, listId: listA.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      b.owner.lists.addClients({ projectId: b.projectId, listId: listB.id, clientIds: [a.ids[0]!] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const report = await importListMembers(
      tdb.prisma,
      b.projectId,
      listB.id,
      utf8(`client_id\n${a.ids[0]}\n`),
      {
        commit: false,
      },
    );
    expect(report.errors).toEqual([
      { row: 2, column: 'client_id', message: `no client ${a.ids[0]} in this project.` },
    ]);
    await expect(
      importListMembers(tdb.prisma, b.projectId, listA.id, utf8(`client_id\n${b.ids[0]}\n`), {
        commit: true,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // "Every matching client" of project B never reaches A's clients.
    expect(
      (await b.owner.lists.addMatching({ projectId: b.projectId, listId: listB.id, filter: {} })).changed,
    ).toBe(2);
    const exported = await csvResponse('all.csv', clientsCsvRows(tdb.prisma, b.projectId, {})).text();
    expect(exported).not.toContain('iso-a-');
    expect(await tdb.prisma.clientListMember.count({ where: { listId: listA.id } })).toBe(0);
  });
});

describe('CSV import of list members', () => {
  it('previews without writing, imports by client_id, platform_id + client_type, or phone, and counts duplicates', async () => {
    const { owner, projectId, ids } = await setup('imp');
    const list = await owner.lists.create({ projectId, name: 'Imported' });
    const byId = utf8(`Client_ID,comment\n${ids[0]},a\n${ids[1]},b\n\n${ids[0]},again\n`);
    const preview = await importListMembers(tdb.prisma, projectId, list.id, byId, { commit: false });
    expect(preview).toMatchObject({
      mode: 'client_id',
      columns: [
        { name: 'Client_ID', use: 'client_id' },
        { name: 'comment', use: 'ignored' },
      ],
      rows: 3,
      duplicates: 1,
      clients: 2,
      errorCount: 0,
      added: null,
    });
    expect(preview.preview.map((r) => r.row)).toEqual([2, 3, 5]);
    expect(await tdb.prisma.clientListMember.count({ where: { listId: list.id } })).toBe(0);
    expect((await importListMembers(tdb.prisma, projectId, list.id, byId, { commit: true })).added).toBe(2);

    const byPlatform = utf8(`platform_id;client_type;group_id\nimp-2;1;SHOP_BOT\nimp-3;1;\n`);
    const platform = await importListMembers(tdb.prisma, projectId, list.id, byPlatform, { commit: true });
    expect(platform).toMatchObject({ mode: 'platform_id', clients: 2, added: 2 });

    const byPhone = utf8('phone\n79001234567\n+7 900 123 45 67\n');
    const phone = await importListMembers(tdb.prisma, projectId, list.id, byPhone, { commit: true });
    expect(phone).toMatchObject({
      mode: 'phone',
      rows: 2,
      duplicates: 1,
      clients: 1,
      alreadyMembers: 1,
      added: 0,
    });
    expect(await tdb.prisma.clientListMember.count({ where: { listId: list.id } })).toBe(4);
  });

  it('refuses bad files whole and bad rows one by one, and writes nothing then', async () => {
    const { owner, projectId, ids } = await setup('bad', 3);
    const list = await owner.lists.create({ projectId, name: 'Careful' });
    const refuse = async (bytes: Uint8Array, message: string | RegExp) =>
      expect(
        importListMembers(tdb.prisma, projectId, list.id, bytes, { commit: true }),
      ).rejects.toMatchObject({
        code: 'invalid',
        field: 'file',
        message:
          typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
      });
    // Windows-1251 "Имя" and a Latin-1 "é": not UTF-8.
    await refuse(new Uint8Array([0xc8, 0xec, 0xff, 0x0a, 0x31]), 'Save it as UTF-8');
    await refuse(utf8(''), 'The file is empty');
    await refuse(utf8('name,email\nAnn,a@example.com\n'), 'The header row must name client_id');
    await refuse(utf8('platform_id\n123\n'), 'Column client_type is missing');
    await refuse(utf8(`client_id\n${'1\n'.repeat(MAX_IMPORT_ROWS + 1)}`), /more than 100,000 rows/);

    const bad = utf8(`client_id\n${ids[0]}\nabc\n999999999\n\n${ids[1]}\n"${ids[2]}\n`);
    const report = await importListMembers(tdb.prisma, projectId, list.id, bad, { commit: false });
    expect(report.errors).toEqual([
      { row: 3, column: 'client_id', message: '"abc" is not a client_id (a positive whole number).' },
      { row: 4, column: 'client_id', message: 'no client 999999999 in this project.' },
      { row: 7, message: 'has a quote (") that is never closed; close it or remove it.' },
    ]);
    expect(report.errorCount).toBe(3);
    await refuse(bad, '3 rows are in error');
    expect(await tdb.prisma.clientListMember.count({ where: { listId: list.id } })).toBe(0);

    const ambiguousPhone = utf8('phone\n79001234567\n');
    await tdb.prisma.clientVariable.create({
      data: { projectId, clientId: ids[1]!, name: 'phone', value: '79001234567', valueKey: '79001234567' },
    });
    const twice = await importListMembers(tdb.prisma, projectId, list.id, ambiguousPhone, { commit: false });
    expect(twice.errors[0]).toMatchObject({
      row: 2,
      column: 'phone',
      message: expect.stringContaining('2 clients have phone'),
    });
  });

  it('creates new clients for a chosen phone channel: numbers normalised, known people merged, new, found and refused counted', async () => {
    const { owner, operator, projectId, ids } = await setup('people', 2);
    const list = await owner.lists.create({ projectId, name: 'Leads' });
    const line = await tdb.prisma.channel.create({
      data: { projectId, kind: 'telephony', clientType: CLIENT_TYPES.telephony, name: '+1 555 0100' },
    });
    const tg = await tdb.prisma.channel.create({
      data: { projectId, kind: 'tg', clientType: CLIENT_TYPES.tg, groupId: 'shop_bot', name: 'Shop' },
    });
    // A caller who already rang the line, written in another form in the file.
    const caller = await tdb.prisma.client.create({
      data: { projectId, clientType: CLIENT_TYPES.telephony, platformId: '447700900123', name: 'Caller' },
    });
    // Operators see the phone channels only, and may import.
    expect((await operator.lists.importChannels({ projectId })).map((c) => c.id)).toEqual([line.id]);

    // What the newcomer had: names, e-mails and phones of people the project never met.
    const file = utf8(
      [
        'Name,E-mail,Phone',
        'Ann Lee,ann@example.com,+1 (415) 555-2671',
        'Ann again,,001 415 555 2671',
        'Known by variable,,+7 900 123-45-67',
        'Caller,,+44 7700 900123',
        'Bob,bob@example.com,+33 6 12 34 56 78',
      ].join('\n'),
    );
    // Without a channel, unknown people are errors, as before.
    const only = await importListMembers(tdb.prisma, projectId, list.id, file, { commit: false });
    expect(only).toMatchObject({ clients: 2, newClients: 0, errorCount: 3, channel: null });

    const preview = await importListMembers(tdb.prisma, projectId, list.id, file, {
      commit: false,
      channelId: line.id,
    });
    expect(preview).toMatchObject({
      mode: 'phone',
      channel: { id: line.id, label: 'Telephony' },
      rows: 5,
      clients: 2,
      newClients: 2,
      duplicates: 1,
      errorCount: 0,
      columns: [
        { name: 'Name', use: 'name' },
        { name: 'E-mail', use: 'email' },
        { name: 'Phone', use: 'phone' },
      ],
    });
    expect(preview.preview.map((r) => r.clientId ?? (r.isNew ? 'new' : r.error))).toEqual([
      'new',
      'new',
      ids[0],
      caller.id,
      'new',
    ]);
    expect(await tdb.prisma.client.count({ where: { projectId } })).toBe(3);

    const done = await importListMembers(tdb.prisma, projectId, list.id, file, {
      commit: true,
      channelId: line.id,
    });
    expect(done).toMatchObject({ added: 4, created: 2 });
    const made = await tdb.prisma.client.findMany({
      where: { projectId, clientType: CLIENT_TYPES.telephony, id: { not: caller.id } },
      orderBy: { platformId: 'asc' },
      select: {
        platformId: true,
        groupId: true,
        name: true,
        variables: { select: { name: true, value: true } },
      },
    });
    expect(made).toEqual([
      {
        platformId: '14155552671',
        groupId: '',
        name: 'Ann Lee',
        variables: [{ name: 'email', value: 'ann@example.com' }],
      },
      {
        platformId: '33612345678',
        groupId: '',
        name: 'Bob',
        variables: [{ name: 'email', value: 'bob@example.com' }],
      },
    ]);
    expect(await tdb.prisma.clientListMember.count({ where: { listId: list.id } })).toBe(4);

    // Imported again: everyone is found, nobody is created twice.
    const again = await importListMembers(tdb.prisma, projectId, list.id, file, {
      commit: true,
      channelId: line.id,
    });
    expect(again).toMatchObject({ clients: 4, newClients: 0, alreadyMembers: 4, added: 0, created: 0 });

    // Refused: a national number no messenger can reach, a bad e-mail; nothing is written.
    const bad = utf8('phone,email\n8 (900) 765-43-21,\n+1 415 555 0199,not-an-address\n');
    const refused = await importListMembers(tdb.prisma, projectId, list.id, bad, {
      commit: false,
      channelId: line.id,
    });
    expect(refused).toMatchObject({ newClients: 0, errorCount: 2 });
    expect(refused.errors).toEqual([
      {
        row: 2,
        column: 'phone',
        message: expect.stringContaining(
          'not a number Telephony can reach: write it in full with its country code',
        ),
      },
      { row: 3, column: 'email', message: '"not-an-address" is not an e-mail address.' },
    ]);
    await expect(
      importListMembers(tdb.prisma, projectId, list.id, bad, { commit: true, channelId: line.id }),
    ).rejects.toMatchObject({ code: 'invalid', field: 'file' });
    expect(await tdb.prisma.client.count({ where: { projectId } })).toBe(5);

    // A channel that does not reach people by phone, or of another project, is refused by name.
    await expect(
      importListMembers(tdb.prisma, projectId, list.id, file, { commit: false, channelId: tg.id }),
    ).rejects.toMatchObject({ code: 'invalid', field: 'channel' });
    const other = await setup('people-other', 1);
    const otherList = await other.owner.lists.create({ projectId: other.projectId, name: 'Theirs' });
    await expect(
      importListMembers(tdb.prisma, other.projectId, otherList.id, file, {
        commit: false,
        channelId: line.id,
      }),
    ).rejects.toMatchObject({ code: 'not_found', field: 'channel' });
    // A file naming clients by id cannot create anyone.
    await expect(
      importListMembers(tdb.prisma, projectId, list.id, utf8(`client_id\n${ids[0]}\n`), {
        commit: false,
        channelId: line.id,
      }),
    ).rejects.toMatchObject({ code: 'invalid', message: expect.stringContaining('phone column') });
  });

  it('is all or nothing: a list deleted before the commit leaves no member behind', async () => {
    const { owner, projectId, ids } = await setup('atomic', 3);
    const list = await owner.lists.create({ projectId, name: 'Gone' });
    const file = utf8(`client_id\n${ids.join('\n')}\n`);
    expect((await importListMembers(tdb.prisma, projectId, list.id, file, { commit: false })).clients).toBe(
      3,
    );
    await owner.lists.delete({ projectId, listId: list.id });
    await expect(
      importListMembers(tdb.prisma, projectId, list.id, file, { commit: true }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await tdb.prisma.clientListMember.count({ where: { projectId } })).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUSINESS_CONNECTION_KEY } from '@/lib/tg/inbound';
import { slotSpacing, TG_LIMITS } from '@/lib/tg/pacing';
import { takeSlot } from '@/server/db/channel-pacing-sql';
import { plainSql } from '@/server/db/raw-sql';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { tgRoute } from './business';
import { createTgPacer } from './pacing';
import { sendRoutesWithSlots } from './sql';

/**
 * A send's slot, as every process takes it from the bot's row. A send that came too late to
 * its slot takes another; the slot it abandoned must not space its chat from the new one, or a
 * late send waits the chat's whole interval more.
 */

let tdb: TestDatabase;
let channelId: number;
let projectId: number;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const project = await createProject(tdb.prisma, { name: 'pacing', plan: 'business' });
  projectId = project.id;
  channelId = (
    await tdb.prisma.channel.create({
      data: { projectId: project.id, kind: 'tg', clientType: 1, groupId: 'pace_bot' },
    })
  ).id;
});
afterAll(() => tdb?.close());

// A group: its sends are spaced 3 s apart, far more than two statements take.
const group = '-1001';
const spacing = slotSpacing(group);

const take = async (chat: string, releasing: string | null = null) => {
  const [slot] = await plainSql(tdb.prisma).run(takeSlot, { channelId, chat, releasing, ...spacing });
  return { ...slot, chatAt: Number(slot.chatEntry) };
};

describe('taking a slot', () => {
  it('spaces a chat’s sends by its interval', async () => {
    const first = await take(group);
    const second = await take(group);
    expect(second.chatAt - first.chatAt).toBeGreaterThanOrEqual(spacing.chatMs);
  });

  it('gives a late send a new slot not spaced from the one it abandoned', async () => {
    const chat = '-1002';
    const abandoned = await take(chat);
    const again = await take(chat, abandoned.chatEntry);
    // Spaced by the bot's interval only (and the time between the two statements).
    expect(again.chatAt - abandoned.chatAt).toBeLessThan(spacing.chatMs);
  });

  it('still spaces it from a slot another send of the chat took meanwhile', async () => {
    const chat = '-1003';
    const abandoned = await take(chat);
    const other = await take(chat);
    const again = await take(chat, abandoned.chatEntry);
    expect(again.chatAt - other.chatAt).toBeGreaterThanOrEqual(spacing.chatMs);
  });
});

describe('routing the sends of one moment', () => {
  // Private chats: the bot's interval (about 35 ms) spaces them, the chat's (a second) does not.
  const client = async (platformId: string) => {
    const { id } = await tdb.prisma.client.create({
      data: { projectId, platformId, clientType: 1, groupId: 'PACE_BOT' },
    });
    return { id, projectId, platformId, clientType: 1, groupId: 'PACE_BOT' };
  };
  // Chat entries are kept in jsonb, to a thousandth of a millisecond.
  const slotOf = (route: Awaited<ReturnType<typeof tgRoute>>, chat: string) => {
    if (!route.slot) throw new Error('no slot taken');
    return Number(route.slot.chatEntry) - slotSpacing(chat, TG_LIMITS).chatMs;
  };

  it("takes each send's route and slot in one statement, the slots a bot interval apart in the order the sends came", async () => {
    const clients = await Promise.all(['501', '502', '503'].map(client));
    const statements = vi.spyOn(sendRoutesWithSlots, 'values');
    const routes = await Promise.all(
      clients.map((c) =>
        tgRoute(tdb.prisma, c, { chat: c.platformId, releasing: null, ...slotSpacing(c.platformId) }),
      ),
    );
    expect(statements).toHaveBeenCalledTimes(1);
    statements.mockRestore();
    for (const route of routes)
      expect(route).toMatchObject({ channel: { id: channelId, groupId: 'pace_bot' } });
    const [a, b, c] = routes.map((r, i) => slotOf(r, clients[i].platformId));
    const { botMs } = slotSpacing('501');
    expect(b - a).toBeCloseTo(botMs, 2);
    expect(c - b).toBeCloseTo(botMs, 2);
    // The bot's next slot follows the last of them.
    const row = await tdb.prisma.channelPacing.findUniqueOrThrow({ where: { channelId } });
    expect(row.nextAt - c).toBeCloseTo(botMs, 2);
  });

  it('spaces two sends to one chat by the chat interval, in two statements', async () => {
    const one = await client('601');
    const statements = vi.spyOn(sendRoutesWithSlots, 'values');
    const [first, second] = await Promise.all(
      [1, 2].map(() => tgRoute(tdb.prisma, one, { chat: '601', releasing: null, ...slotSpacing('601') })),
    );
    expect(statements).toHaveBeenCalledTimes(2);
    statements.mockRestore();
    expect(slotOf(second, '601') - slotOf(first, '601')).toBeGreaterThanOrEqual(slotSpacing('601').chatMs);
  });

  it('takes no slot for a refused business route, and refuses a bot not connected', async () => {
    const owner = await client('701');
    await tdb.prisma.clientChannelState.create({
      data: { clientId: owner.id, key: BUSINESS_CONNECTION_KEY, value: 'biz-1' },
    });
    await tdb.prisma.tgBusinessConnection.create({
      data: { channelId, connectionId: 'biz-1', userId: 7, userChatId: 7, enabled: false, canReply: true },
    });
    const other = await client('702');
    const before = await tdb.prisma.channelPacing.findUniqueOrThrow({ where: { channelId } });
    const [refused, routed, missing] = await Promise.allSettled([
      tgRoute(tdb.prisma, owner, { chat: '701', releasing: null, ...slotSpacing('701') }),
      tgRoute(tdb.prisma, other, { chat: '702', releasing: null, ...slotSpacing('702') }),
      tgRoute(
        tdb.prisma,
        { ...other, groupId: 'gone_bot' },
        { chat: '702', releasing: null, ...slotSpacing('702') },
      ),
    ]);
    expect(refused).toMatchObject({
      status: 'fulfilled',
      value: { refused: expect.stringContaining('is disabled') },
    });
    expect(routed).toMatchObject({ status: 'fulfilled', value: { slot: expect.any(Object) } });
    expect(missing).toMatchObject({
      status: 'rejected',
      reason: new Error('the tg bot gone_bot is not connected to this project'),
    });
    const after = await tdb.prisma.channelPacing.findUniqueOrThrow({ where: { channelId } });
    expect(Object.keys(after.chats as object)).toContain('702');
    expect(Object.keys(after.chats as object)).not.toContain('701');
    // One slot taken: the bot's next moved by one interval past the routed send's slot.
    if (routed.status !== 'fulfilled') throw new Error('not routed');
    expect(after.nextAt - slotOf(routed.value, '702')).toBeCloseTo(slotSpacing('702').botMs, 2);
    expect(after.nextAt).toBeGreaterThan(before.nextAt);
  });
});

describe('a chat’s turns (issue 52, item 19)', () => {
  /** Whether the promise has settled once the event loop has turned: no timer can have fired. */
  const settledAtOnce = async (promise: Promise<unknown>) => {
    let settled = false;
    void promise.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    return settled;
  };

  it('a turn cancelled unsent (its bot not connected) spaces nothing: the chat’s next turn comes at once', async () => {
    const pacer = createTgPacer();
    for (let i = 0; i < 50; i++) {
      const turn = pacer.turn('gone_bot', '7001');
      expect(await settledAtOnce(turn), `turn ${i}`).toBe(true);
      (await turn).cancel();
    }
  });

  it('a turn whose send was answered still spaces the chat’s next one by its interval', async () => {
    const pacer = createTgPacer();
    const first = await pacer.turn('pace_bot_2', '7002');
    await first.send(tdb.prisma, channelId, async () => 'sent');
    expect(await settledAtOnce(pacer.turn('pace_bot_2', '7002'))).toBe(false);
  });
});

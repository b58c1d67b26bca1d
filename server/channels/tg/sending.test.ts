import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutgoingTgMessage, renderMessage, type TgSend } from '@/lib/tg/render';
import { type Database, openDatabase } from '@/server/db/database';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';
import { type BotApiClient, botApiClient } from './bot-api';
import { createTgPacer } from './pacing';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

/**
 * Rendered messages against the fake Bot API (on a clock the test moves), and sends paced by
 * two instances sharing one database against the fake enforcing the messenger's limits.
 */

let clock = 0;
let fake: FakeBotApi;
let bot: FakeBot;
let client: BotApiClient;

beforeAll(async () => {
  process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
  fake = await startFakeBotApi({ now: () => clock });
  bot = fake.addBot();
  client = botApiClient(bot.token, { apiRoot: fake.url });
});
afterAll(() => fake.close());

const send = (s: TgSend) => client.call((api) => api.raw[s.method](s.params as never) as Promise<unknown>);

describe('rendered messages on the Bot API', () => {
  it('are accepted: every button kind, long texts, captions and attachments', async () => {
    const long = 'A button text that is far too long to fit into sixty-four bytes of callback data';
    const messages: OutgoingTgMessage[] = [
      {
        text: 'Pick',
        attachments: [],
        buttons: [
          { type: 'reply', text: 'A', line: 0 },
          { type: 'reply', text: 'B', line: 1 },
        ],
      },
      {
        text: 'Pay',
        attachments: [],
        buttons: [
          { type: 'inline', text: 'Site', url: 'https://shop.example' },
          { type: 'inline', text: long },
          { type: 'inline', text: 'Own', callback_data: 'own:1' },
          { type: 'reply', text: 'Back' },
        ],
      },
      {
        // 41 Cyrillic letters are 82 bytes: a bot saved before the schema counted bytes.
        text: 'Скидка?',
        attachments: [],
        buttons: [{ type: 'inline', text: 'Да', callback_data: 'д'.repeat(41) }],
      },
      {
        text: 'Size?',
        attachments: [],
        buttons: { hint: 'Reply with a number', buttons: [{ type: 'reply', text: 'S' }] },
      },
      { text: `${'word '.repeat(2000)}`, attachments: [], buttons: [{ type: 'reply', text: 'OK' }] },
      {
        text: 'x'.repeat(1500),
        attachments: [{ type: 'image', url: 'https://cdn.example/p.png' }],
        buttons: null,
      },
      {
        text: 'Everything',
        attachments: [
          { type: 'image', url: 'https://a.example/1.png' },
          { type: 'video', url: 'https://a.example/2.mp4' },
          { type: 'file', url: 'https://a.example/3.pdf' },
          { type: 'audio', url: 'https://a.example/4.mp3' },
          { type: 'link', url: 'https://a.example/page' },
        ],
        buttons: [{ type: 'inline', text: 'Yes' }],
      },
      { text: '', attachments: [], buttons: [{ type: 'reply', text: 'Only a button' }] },
      { text: '*bold?* <i>no</i> [link](x) _', attachments: [], buttons: null },
    ];
    for (const message of messages) {
      for (const s of renderMessage(message, { chat_id: 4242 }).sends) {
        clock += 1_000;
        const result = await send(s);
        expect(result, `${s.method} ${JSON.stringify(s.params).slice(0, 120)}`).toMatchObject({ ok: true });
      }
    }
    const texts = fake
      .callsOf('sendMessage', bot.token)
      .map((c) => (c.answer.ok ? (c.answer.result as { text?: string }).text : ''));
    expect(texts).toContain('*bold?* <i>no</i> [link](x) _');
  });
});

describe('paced sends, shared by two instances', () => {
  let limited: FakeBotApi;
  let one: TestDatabase;
  let other: Database | undefined;
  let projectId: number;
  /** The second instance's database handle: its own connections on PostgreSQL, PGlite's one otherwise. */
  const otherDb = () => (other ?? one).prisma;

  beforeAll(async () => {
    // The messenger's limits on the real clock, as the database's slots are.
    limited = await startFakeBotApi();
    one = await createTestDatabase();
    if (one.url) other = await openDatabase({ mode: 'server', url: one.url });
    projectId = (await createProject(one.prisma, { name: 'pacing', plan: 'business' })).id;
  });
  afterAll(async () => {
    await other?.close();
    await one?.close();
    await limited?.close();
  });

  /** A bot of its own (a fresh row of slots) and a way to send as it. */
  async function newBot() {
    const bot = limited.addBot();
    const client = botApiClient(bot.token, { apiRoot: limited.url });
    const channel = await one.prisma.channel.create({
      data: { projectId, kind: 'tg', clientType: 1, groupId: bot.username },
    });
    const sendTo = (chat: number, text: string) =>
      client.call((api) => api.raw.sendMessage({ chat_id: chat, text }));
    return { channelId: channel.id, sendTo, token: bot.token };
  }
  const refusedSince = (from: number, token: string) =>
    limited.calls.slice(from).filter((c) => c.status === 429 && c.token === token);

  it('keep two instances sending at once to one bot and shared chats within the limits', async () => {
    // Each instance alone keeps to the limits it is given; with these (20 a second, 1.5 s per
    // chat) the two together exceed the messenger's 30 a second, and both write to chats 6-10,
    // unless they share their slots. The margin over the messenger's limits absorbs this busy
    // test machine's timer delays, which a send's slot cannot foresee.
    const limits = { botPerSecond: 20, privateChatIntervalMs: 1500, groupPerMinute: 20 };
    const instances = [
      { pacer: createTgPacer(limits), db: one.prisma, chats: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
      { pacer: createTgPacer(limits), db: otherDb(), chats: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15] },
    ];
    const { channelId, sendTo, token } = await newBot();
    const before = limited.calls.length;
    // Each instance sends three rounds to its ten chats, four at a time (as a worker runs its
    // jobs): 60 sends, half of them to chats the other instance writes to as well.
    const results = await Promise.all(
      instances.map(async ({ pacer, db, chats }, i) => {
        const queue = [0, 1, 2].flatMap((round) => chats.map((chat) => ({ chat: 5_000 + chat, round })));
        const sent: Awaited<ReturnType<typeof sendTo>>[] = [];
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let next = queue.shift(); next; next = queue.shift()) {
              const { chat, round } = next;
              sent.push(
                await pacer.paced(db, channelId, String(chat), () => sendTo(chat, `i${i} r${round}`)),
              );
            }
          }),
        );
        return sent;
      }),
    ).then((all) => all.flat());
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(limited.callsOf('sendMessage', token).length).toBe(60);
    expect(refusedSince(before, token)).toEqual([]);
  });

  it('make every instance wait out a 429 that one of them got', async () => {
    const [first, second] = [createTgPacer(), createTgPacer()];
    const { channelId, sendTo, token } = await newBot();
    // Someone else (an unpaced tool with the same token) used up the bot's second.
    for (let i = 0; (await sendTo(6_000 + i, 'other')).ok; i++);
    const before = limited.calls.length;
    const refused = await first.paced(one.prisma, channelId, '6100', () => sendTo(6_100, 'first'));
    expect(refused).toMatchObject({ ok: false, reason: 'retry_after' });
    if (refused.ok || refused.reason !== 'retry_after') return;
    await first.pause(one.prisma, channelId, refused.retryAfter);
    // The other instance's next send waits for the pause rather than being refused too.
    expect(await second.paced(otherDb(), channelId, '6101', () => sendTo(6_101, 'second'))).toMatchObject({
      ok: true,
    });
    expect(refusedSince(before, token)).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPacing, nextSendAt, type PacingState, recordRetryAfter, recordSend } from '@/lib/tg/pacing';
import { type OutgoingTgMessage, renderMessage, type TgSend } from '@/lib/tg/render';
import { type BotApiClient, botApiClient } from './bot-api';
import { type FakeBot, type FakeBotApi, startFakeBotApi } from './testing/fake-bot-api';

/** Rendered messages and paced sends against the fake Bot API, on a clock the test moves. */

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

describe('paced sends', () => {
  it('send 300 messages to 100 chats with no answer over the limits', async () => {
    clock = 10_000_000;
    let pacing: PacingState = emptyPacing();
    const start = clock;
    const before = fake.calls.length;
    for (let i = 0; i < 300; i++) {
      const chat = 9_000 + (i % 100);
      clock = nextSendAt(pacing, chat, clock);
      const result = await send({ method: 'sendMessage', params: { chat_id: chat, text: `#${i}` } });
      expect(result.ok).toBe(true);
      pacing = recordSend(pacing, chat, clock);
    }
    expect(fake.calls.slice(before).filter((c) => c.status === 429)).toEqual([]);
    expect(clock - start).toBe(9_000);
  });

  it('honour a 429: the bot waits retry_after, then the send goes through', async () => {
    clock = 20_000_000;
    let pacing: PacingState = emptyPacing();
    // Another process of the same bot used up this second.
    for (let i = 0; i < 30; i++)
      await send({ method: 'sendMessage', params: { chat_id: 7_000 + i, text: 'other' } });
    const refused = await send({ method: 'sendMessage', params: { chat_id: 8_000, text: 'mine' } });
    expect(refused).toMatchObject({ ok: false, reason: 'retry_after', retryAfter: 1 });
    if (refused.ok || refused.reason !== 'retry_after') return;
    pacing = recordRetryAfter(pacing, { retryAfterSeconds: refused.retryAfter, chatId: 8_000 }, clock);
    clock = nextSendAt(pacing, 8_001, clock);
    expect(clock).toBe(20_001_000);
    expect(await send({ method: 'sendMessage', params: { chat_id: 8_000, text: 'mine' } })).toMatchObject({
      ok: true,
    });
  });
});

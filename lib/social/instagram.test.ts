import { describe, expect, it } from 'vitest';
import { splitText, utf8Size } from '@/lib/channels/message-layout';
import {
  INSTAGRAM_TEXT_LIMIT,
  instagramButtonsLayout,
  QUICK_REPLIES_MAX,
  renderInstagramMessage,
  renderPrivateReply,
} from './instagram-render';
import { instagramUpdates, parseInstagramItem, STORY_MENTION_TEXT } from './instagram-webhook';
import { HUMAN_AGENT_MS, PRIVATE_REPLY_MS, privateReplyTo, WINDOW_MS, windowRule } from './instagram-window';

const buttons = (n: number, title = (i: number) => `Option ${i + 1}`) =>
  Array.from({ length: n }, (_, i) => ({ type: 'reply' as const, text: title(i) }));

describe('rendering a message for Instagram', () => {
  it('puts up to 13 short distinct buttons as quick replies on the last text, payload the whole text', () => {
    const sends = renderInstagramMessage({ text: 'Pick one', attachments: [], buttons: buttons(13) });
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      text: expect.stringMatching(/^Pick one\n\n1\. Option 1\n2\. Option 2\n.*\n13\. Option 13$/s),
      quick_replies: expect.arrayContaining([
        { content_type: 'text', title: 'Option 13', payload: 'Option 13' },
      ]),
    });
    expect((sends[0] as { quick_replies: unknown[] }).quick_replies).toHaveLength(QUICK_REPLIES_MAX);
  });

  it('shows 14 buttons, a title over 20 characters or the hint variant as numbered text', () => {
    expect(instagramButtonsLayout(buttons(14))).toBe('numbered_text');
    expect(instagramButtonsLayout(buttons(2, (i) => `${'x'.repeat(20)}${i}`))).toBe('numbered_text');
    expect(instagramButtonsLayout(buttons(2, () => 'Same'))).toBe('numbered_text');
    const [hint] = renderInstagramMessage({
      text: 'Sizes',
      attachments: [],
      buttons: { hint: 'Type a number', buttons: buttons(2) },
    });
    expect(hint).toEqual({ text: 'Sizes\n\nType a number\n1. Option 1\n2. Option 2' });
    const [many] = renderInstagramMessage({ text: 'Sizes', attachments: [], buttons: buttons(14) });
    expect((many as { text: string }).text).toContain('\n14. Option 14');
    expect(many).not.toHaveProperty('quick_replies');
  });

  it('sends files first by URL, splits text over 1,000 characters, and turns URL buttons into lines', () => {
    const long = `${'word '.repeat(300)}end`;
    const sends = renderInstagramMessage({
      text: long,
      attachments: [
        { type: 'image', url: 'https://x.test/a.png' },
        { type: 'file', url: 'https://x.test/b.pdf' },
        { type: 'link', url: 'https://x.test/page' },
      ],
      buttons: [{ type: 'inline', text: 'Site', url: 'https://x.test' }, ...buttons(1)],
    });
    expect(sends[0]).toEqual({ attachment: { type: 'image', payload: { url: 'https://x.test/a.png' } } });
    expect(sends[1]).toEqual({ attachment: { type: 'file', payload: { url: 'https://x.test/b.pdf' } } });
    const texts = sends.slice(2) as { text: string; quick_replies?: unknown[] }[];
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.every((t) => utf8Size(t.text) <= INSTAGRAM_TEXT_LIMIT)).toBe(true);
    expect(texts.at(-1)?.text).toContain('Site: https://x.test\nhttps://x.test/page');
    expect(texts.at(-1)?.quick_replies).toHaveLength(1);
    expect(texts.slice(0, -1).every((t) => !t.quick_replies)).toBe(true);
  });

  it('splits a long Russian text by its UTF-8 bytes, at spaces, losing nothing', () => {
    // 1,407 characters, 2,495 bytes: cut at 1,000 characters, the first part alone is 1,774 bytes.
    const text = 'Спасибо за ваш заказ! '.repeat(64).trim();
    const sends = renderInstagramMessage({ text, attachments: [], buttons: null }) as { text: string }[];
    expect(sends.length).toBe(3);
    expect(sends.every((p) => utf8Size(p.text) <= INSTAGRAM_TEXT_LIMIT)).toBe(true);
    // Cut at spaces only: the parts joined by one give the text back.
    expect(sends.map((p) => p.text).join(' ')).toBe(text);
  });

  it('cuts a text without spaces between characters: never inside an emoji or a letter with its accent', () => {
    const accents = 'e\u0301'.repeat(600); // 1,800 bytes, 3 to a letter
    const parts = splitText(accents, INSTAGRAM_TEXT_LIMIT, utf8Size);
    expect(parts.map(utf8Size)).toEqual([999, 801]);
    expect(parts.join('')).toBe(accents);
    const thumbs = '👍🏽'.repeat(200); // 1,600 bytes, 8 to a thumb with its skin tone
    const cut = splitText(`a${thumbs}`, INSTAGRAM_TEXT_LIMIT, utf8Size);
    expect(cut.map(utf8Size)).toEqual([993, 608]);
    expect(cut[1].startsWith('👍🏽')).toBe(true);
    expect(cut.join('')).toBe(`a${thumbs}`);
  });

  it('keeps a private reply’s numbered options whole, cutting its text to fit 1,000 bytes', () => {
    const text = 'Спасибо за ваш комментарий! '.repeat(40).trim();
    const { text: reply } = renderPrivateReply({ text, attachments: [], buttons: buttons(3) });
    expect(utf8Size(reply)).toBeLessThanOrEqual(INSTAGRAM_TEXT_LIMIT);
    expect(reply).toMatch(/^Спасибо.*…\n\n1\. Option 1\n2\. Option 2\n3\. Option 3$/s);
  });

  it('renders a private reply as one text with numbered options and addresses, cut at 1,000 bytes', () => {
    expect(
      renderPrivateReply({
        text: 'Menu',
        attachments: [{ type: 'image', url: 'https://x.test/m.png' }],
        buttons: [...buttons(2), { type: 'inline', text: 'Site', url: 'https://x.test' }],
      }),
    ).toEqual({ text: 'Menu\n\n1. Option 1\n2. Option 2\nSite: https://x.test\nhttps://x.test/m.png' });
    const cut = renderPrivateReply({ text: 'x'.repeat(1500), attachments: [], buttons: null }).text;
    expect(cut).toBe(`${'x'.repeat(997)}…`);
    expect(utf8Size(cut)).toBe(1000);
  });

  it('shows the options in the text beside the quick replies, for desktop Instagram, which shows none', () => {
    expect(renderInstagramMessage({ text: 'Pay now?', attachments: [], buttons: buttons(2) })).toEqual([
      {
        text: 'Pay now?\n\n1. Option 1\n2. Option 2',
        quick_replies: [
          { content_type: 'text', title: 'Option 1', payload: 'Option 1' },
          { content_type: 'text', title: 'Option 2', payload: 'Option 2' },
        ],
      },
    ]);
    // Buttons without a text: their numbered lines are the text the quick replies ride on.
    expect(renderInstagramMessage({ text: '', attachments: [], buttons: buttons(1) })).toEqual([
      {
        text: '1. Option 1',
        quick_replies: [{ content_type: 'text', title: 'Option 1', payload: 'Option 1' }],
      },
    ]);
  });
});

describe('the messaging window', () => {
  const now = Date.parse('2026-05-10T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  it('answers freely within 24 hours, an operator with HUMAN_AGENT within 7 days, nothing after', () => {
    expect(windowRule(ago(WINDOW_MS - 1000), now, false)).toEqual({ ok: true, messagingType: 'RESPONSE' });
    expect(windowRule(ago(WINDOW_MS + 1000), now, false)).toMatchObject({
      ok: false,
      error: expect.stringContaining('24-hour'),
    });
    expect(windowRule(ago(WINDOW_MS + 1000), now, true)).toEqual({
      ok: true,
      messagingType: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
    });
    expect(windowRule(ago(HUMAN_AGENT_MS + 1000), now, true)).toMatchObject({
      ok: false,
      error: expect.stringContaining('HUMAN_AGENT'),
    });
    expect(windowRule(null, now, true)).toMatchObject({
      ok: false,
      error: expect.stringContaining('never wrote'),
    });
  });
});

describe('the private reply to a comment', () => {
  it('is open for 7 days after the comment', () => {
    const now = Date.parse('2026-05-10T12:00:00Z');
    const state = (ago: number) => JSON.stringify({ id: 'c1', at: new Date(now - ago).toISOString() });
    expect(privateReplyTo(state(1000), now)).toBe('c1');
    expect(privateReplyTo(state(PRIVATE_REPLY_MS + 1000), now)).toBeNull();
    expect(privateReplyTo(null, now)).toBeNull();
    expect(privateReplyTo('not json', now)).toBeNull();
  });
});

describe('reading the webhook', () => {
  const event = (e: Record<string, unknown>) => ({
    sender: { id: '900' },
    recipient: { id: '17841' },
    timestamp: 1_700_000_000_000,
    ...e,
  });
  const delivery = (...messaging: object[]) => ({
    object: 'instagram',
    entry: [{ id: '17841', time: 1, messaging }],
  });

  it('reads texts, quick replies, postbacks, media, story replies and mentions, reads and deliveries', () => {
    const read = instagramUpdates(
      delivery(
        event({ message: { mid: 'm1', text: 'hi' } }),
        event({ message: { mid: 'm2', text: 'Yes', quick_reply: { payload: 'Yes please' } } }),
        event({ postback: { mid: 'm3', title: 'Start', payload: 'START' } }),
        event({
          message: {
            mid: 'm4',
            attachments: [{ type: 'image', payload: { url: 'https://cdn.test/p.jpg' } }],
          },
        }),
        event({
          message: { mid: 'm5', text: 'nice', reply_to: { story: { id: 's1', url: 'https://cdn.test/s1' } } },
        }),
        event({
          message: {
            mid: 'm6',
            attachments: [{ type: 'story_mention', payload: { url: 'https://cdn.test/s2' } }],
          },
        }),
        event({ read: { mid: 'out1' } }),
        event({ delivery: { mids: ['out2', 'out3'] } }),
        event({
          sender: { id: '17841' },
          recipient: { id: '900' },
          message: { mid: 'm7', text: 'ours', is_echo: true },
        }),
      ),
    );
    if (!read.ok) throw new Error(read.reason);
    expect(read.accounts).toEqual(['17841']);
    expect(read.updates.map((u) => u.externalId)).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'read:out1',
      'delivery:out2,out3',
      'm7',
    ]);
    expect(read.updates.every((u) => u.chat === '900')).toBe(true);
    const parsed = read.updates.map((u) => u.parsed);
    expect(parsed[0]).toMatchObject({ kind: 'message', from: '900', text: 'hi', attachments: [] });
    expect(parsed[1]).toMatchObject({ text: 'Yes please' });
    expect(parsed[2]).toMatchObject({ kind: 'message', text: 'START' });
    expect(parsed[3]).toMatchObject({
      text: '',
      attachments: [{ type: 'image', url: 'https://cdn.test/p.jpg' }],
    });
    expect(parsed[4]).toMatchObject({ text: 'nice', story: { kind: 'reply', url: 'https://cdn.test/s1' } });
    expect(parsed[5]).toMatchObject({
      text: STORY_MENTION_TEXT,
      story: { kind: 'mention', url: 'https://cdn.test/s2' },
    });
    expect(parsed[6]).toEqual({
      kind: 'status',
      account: '17841',
      from: '900',
      mids: ['out1'],
      status: 'read',
    });
    expect(parsed[7]).toMatchObject({ kind: 'status', mids: ['out2', 'out3'], status: 'delivered' });
    expect(parsed[8]).toEqual({ kind: 'ignore' });
    // The stored payload reads back the same (the sweeper's way).
    expect(read.updates.map((u) => parseInstagramItem(JSON.parse(JSON.stringify(u.payload))))).toEqual(
      parsed,
    );
  });

  it('reads a comment on a post, and ignores the account’s own comments and other fields', () => {
    const change = (from: string, id: string) => ({
      field: 'comments',
      value: { from: { id: from, username: 'Ann' }, media: { id: 'p1' }, id, text: 'price?' },
    });
    const read = instagramUpdates({
      object: 'instagram',
      entry: [
        {
          id: '17841',
          time: 1_700_000_000,
          changes: [change('900', 'c1'), change('17841', 'c2'), { field: 'mentions', value: {} }],
        },
      ],
    });
    if (!read.ok) throw new Error(read.reason);
    expect(read.updates).toHaveLength(1);
    expect(read.updates[0]).toMatchObject({
      externalId: 'comment:c1',
      chat: '900',
      order: 1_700_000_000_000,
    });
    expect(read.updates[0].parsed).toEqual({
      kind: 'comment',
      account: '17841',
      from: '900',
      username: 'ann',
      commentId: 'c1',
      sentAt: 1_700_000_000_000,
      text: 'price?',
    });
    expect(parseInstagramItem(JSON.parse(JSON.stringify(read.updates[0].payload)))).toEqual(
      read.updates[0].parsed,
    );
  });

  it('refuses what is not Instagram’s webhook, and a stored payload that does not parse', () => {
    expect(instagramUpdates({ object: 'page', entry: [] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('instagram'),
    });
    expect(parseInstagramItem({ nope: 1 })).toMatchObject({ kind: 'invalid' });
  });
});

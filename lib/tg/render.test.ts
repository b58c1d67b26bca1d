import { describe, expect, it } from 'vitest';
import { buttonRows, splitText } from '@/lib/channels/message-layout';
import type { Button } from '@/lib/schema';
import {
  CALLBACK_ID_PREFIX,
  callbackData,
  EMPTY_TEXT_WITH_BUTTONS,
  renderMessage,
  TEXT_LIMIT,
} from './render';

const to = { chat_id: 42 };
const reply = (text: string, extra: Partial<Button> = {}): Button => ({ type: 'reply', text, ...extra });
const inline = (text: string, extra: Partial<Button> = {}): Button => ({ type: 'inline', text, ...extra });

describe('rendering a message for the tg messenger', () => {
  it('sends plain text without parse_mode, markup characters as they are', () => {
    const { sends } = renderMessage(
      { text: '  <b>*Price*</b> _1_ & [x](y)  ', attachments: [], buttons: null },
      to,
    );
    expect(sends).toEqual([
      { method: 'sendMessage', params: { chat_id: 42, text: '<b>*Price*</b> _1_ & [x](y)' } },
    ]);
  });

  it('sends nothing for an empty message', () => {
    expect(renderMessage({ text: ' ', attachments: [], buttons: null }, to).sends).toEqual([]);
  });

  it('builds a reply keyboard with rows by line and order by index_in_line', () => {
    const buttons = [
      reply('C', { line: 1, index_in_line: 1 }),
      reply('B', { line: 0, index_in_line: 1 }),
      reply('D', { line: 1, index_in_line: 0 }),
      reply('A', { line: 0, index_in_line: 0 }),
      reply('Own row'),
    ];
    const { sends } = renderMessage({ text: 'Choose', attachments: [], buttons }, to);
    expect(sends[0].params.reply_markup).toEqual({
      keyboard: [[{ text: 'A' }, { text: 'B' }], [{ text: 'D' }, { text: 'C' }], [{ text: 'Own row' }]],
      resize_keyboard: true,
    });
  });

  it('builds an inline keyboard with URL buttons and callback_data, reply buttons joining it', () => {
    const { sends, callbackTexts } = renderMessage(
      {
        text: 'Pay',
        attachments: [],
        buttons: [
          inline('Site', { url: 'https://shop.example', line: 0 }),
          inline('Yes', { line: 1 }),
          inline('Custom', { callback_data: 'pay:42', line: 1 }),
          reply('Back', { line: 2 }),
        ],
      },
      to,
    );
    expect(sends[0].params.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: 'Site', url: 'https://shop.example' }],
        [
          { text: 'Yes', callback_data: 'Yes' },
          { text: 'Custom', callback_data: 'pay:42' },
        ],
        [{ text: 'Back', callback_data: 'Back' }],
      ],
    });
    expect(callbackTexts).toEqual({});
  });

  it('gives a button whose text is over 64 bytes a short stable id and returns the mapping', () => {
    const long = 'Я хочу получить скидку на первую пиццу'; // fewer than 64 characters, more than 64 bytes
    const fits = 'x'.repeat(64);
    const data = callbackData(inline(long));
    expect(data.startsWith(CALLBACK_ID_PREFIX)).toBe(true);
    expect(new TextEncoder().encode(data).length).toBeLessThanOrEqual(64);
    expect(callbackData(inline(long))).toBe(data);
    expect(callbackData(inline(fits))).toBe(fits);
    // A text that looks like an id is hashed too, so an id always means "look the text up".
    expect(callbackData(inline('bb:abc')).startsWith(CALLBACK_ID_PREFIX)).toBe(true);
    expect(callbackData(inline('bb:abc'))).not.toBe('bb:abc');
    const { callbackTexts } = renderMessage(
      { text: 'Hi', attachments: [], buttons: [inline(long), inline(fits)] },
      to,
    );
    expect(callbackTexts).toEqual({ [data]: long });
  });

  it('never sends own callback_data over 64 bytes, which the messenger refuses with the whole message', () => {
    const own = 'д'.repeat(41); // 41 characters, 82 bytes: saved before the schema counted bytes
    const data = callbackData(inline('Да', { callback_data: own }));
    expect(data).toBe('Да');
    const { sends } = renderMessage(
      {
        text: 'Hi',
        attachments: [],
        buttons: [inline('Да', { callback_data: own }), inline('Ok', { callback_data: 'д'.repeat(32) })],
      },
      to,
    );
    expect(sends[0].params.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: 'Да', callback_data: 'Да' }],
        [{ text: 'Ok', callback_data: 'д'.repeat(32) }],
      ],
    });
  });

  it('renders the hint variant as text with numbered options and no keyboard', () => {
    const { sends } = renderMessage(
      {
        text: 'What size?',
        attachments: [],
        buttons: { hint: 'Reply with a number:', buttons: [reply('Small'), reply('Large')] },
      },
      to,
    );
    expect(sends).toEqual([
      {
        method: 'sendMessage',
        params: { chat_id: 42, text: 'What size?\n\nReply with a number:\n1. Small\n2. Large' },
      },
    ]);
  });

  it('splits a long text at line breaks, else spaces, with the keyboard on the last part', () => {
    const line = `${'word '.repeat(200).trim()}\n`; // 999 characters and a line break
    const text = line.repeat(9);
    const { sends } = renderMessage({ text, attachments: [], buttons: [reply('OK')] }, to);
    expect(sends.map((s) => (s.params.text as string).length)).toEqual([3999, 3999, 999]);
    expect(sends.map((s) => s.params.reply_markup === undefined)).toEqual([true, true, false]);
    expect(sends.map((s) => s.params.text).join('\n')).toBe(text.trim());
  });

  it('splits a text with no spaces at the limit, never between the halves of a character', () => {
    expect(splitText('a'.repeat(9000), TEXT_LIMIT).map((p) => p.length)).toEqual([4096, 4096, 808]);
    const emoji = `${'a'.repeat(4095)}😀b`;
    expect(splitText(emoji, TEXT_LIMIT)).toEqual(['a'.repeat(4095), '😀b']);
    expect(splitText('one two', 5)).toEqual(['one', 'two']);
  });

  it('puts a short text as the caption of a single attachment', () => {
    const { sends } = renderMessage(
      {
        text: 'Our pizza',
        attachments: [{ type: 'image', url: 'https://cdn.example/p.jpg' }],
        buttons: [reply('Order')],
      },
      { chat_id: 42, business_connection_id: 'bc1' },
    );
    expect(sends).toEqual([
      {
        method: 'sendPhoto',
        params: {
          chat_id: 42,
          business_connection_id: 'bc1',
          photo: 'https://cdn.example/p.jpg',
          caption: 'Our pizza',
          reply_markup: { keyboard: [[{ text: 'Order' }]], resize_keyboard: true },
        },
      },
    ]);
  });

  it('sends a text over 1024 characters apart from the attachment', () => {
    const text = 'x'.repeat(1025);
    const { sends } = renderMessage(
      { text, attachments: [{ type: 'video', url: 'https://v.example/a.mp4' }], buttons: null },
      to,
    );
    expect(sends).toEqual([
      { method: 'sendVideo', params: { chat_id: 42, video: 'https://v.example/a.mp4' } },
      { method: 'sendMessage', params: { chat_id: 42, text } },
    ]);
  });

  it('maps every attachment type, a link as a text message, the text after them', () => {
    const { sends } = renderMessage(
      {
        text: 'All of it',
        attachments: [
          { type: 'image', url: 'https://a.example/1.png' },
          { type: 'video', url: 'https://a.example/2.mp4' },
          { type: 'file', url: 'https://a.example/3.pdf' },
          { type: 'audio', url: 'https://a.example/4.mp3' },
          { type: 'link', url: 'https://a.example/page' },
        ],
        buttons: null,
      },
      to,
    );
    expect(
      sends.map((s) => [
        s.method,
        s.params.photo ?? s.params.video ?? s.params.document ?? s.params.audio ?? s.params.text,
      ]),
    ).toEqual([
      ['sendPhoto', 'https://a.example/1.png'],
      ['sendVideo', 'https://a.example/2.mp4'],
      ['sendDocument', 'https://a.example/3.pdf'],
      ['sendAudio', 'https://a.example/4.mp3'],
      ['sendMessage', 'https://a.example/page'],
      ['sendMessage', 'All of it'],
    ]);
  });

  it('keeps a keyboard without text on the last attachment, or on a placeholder text', () => {
    const withFile = renderMessage(
      { text: '', attachments: [{ type: 'file', url: 'https://a.example/f.pdf' }], buttons: [reply('Next')] },
      to,
    );
    expect(withFile.sends).toHaveLength(1);
    expect(withFile.sends[0].params.reply_markup).toBeDefined();
    const alone = renderMessage({ text: '', attachments: [], buttons: [reply('Next')] }, to);
    expect(alone.sends).toEqual([
      {
        method: 'sendMessage',
        params: {
          chat_id: 42,
          text: EMPTY_TEXT_WITH_BUTTONS,
          reply_markup: { keyboard: [[{ text: 'Next' }]], resize_keyboard: true },
        },
      },
    ]);
  });

  it('orders buttons of one line by list order when index_in_line is missing', () => {
    expect(
      buttonRows([reply('a', { line: 3 }), reply('b', { line: 3 }), reply('c', { line: 1 })]).map((r) =>
        r.map((b) => b.text),
      ),
    ).toEqual([['c'], ['a', 'b']]);
  });
});

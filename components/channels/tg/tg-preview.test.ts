import { describe, expect, it } from 'vitest';
import { tgPreview } from './tg-preview';

describe('a bot message as the tg messenger shows it', () => {
  it('puts reply buttons in a keyboard under the input, by line and index_in_line', () => {
    const preview = tgPreview({
      text: 'Pick a size',
      attachments: [],
      buttons: [
        { type: 'reply', text: 'L', line: 0, index_in_line: 1 },
        { type: 'reply', text: 'S', line: 0, index_in_line: 0 },
        { type: 'reply', text: 'Help' },
      ],
    });
    expect(preview).toEqual({
      bubbles: [{ text: 'Pick a size', inlineKeyboard: [] }],
      replyKeyboard: [['S', 'L'], ['Help']],
    });
  });

  it('puts inline and URL buttons under the message', () => {
    const preview = tgPreview({
      text: 'Our shop',
      attachments: [],
      buttons: [
        { type: 'inline', text: 'Buy', line: 0 },
        { type: 'inline', text: 'Site', url: 'https://example.com', line: 0 },
      ],
    });
    expect(preview).toEqual({
      bubbles: [
        {
          text: 'Our shop',
          inlineKeyboard: [[{ text: 'Buy' }, { text: 'Site', url: 'https://example.com' }]],
        },
      ],
      replyKeyboard: null,
    });
  });

  it('shows the hint variant as numbered text with no keyboard', () => {
    const preview = tgPreview({
      text: 'Size?',
      attachments: [],
      buttons: {
        hint: 'Answer with a number',
        buttons: [
          { type: 'reply', text: 'S' },
          { type: 'reply', text: 'L' },
        ],
      },
    });
    expect(preview).toEqual({
      bubbles: [{ text: 'Size?\n\nAnswer with a number\n1. S\n2. L', inlineKeyboard: [] }],
      replyKeyboard: null,
    });
  });

  it('splits a long text and gives one attachment the text as its caption', () => {
    const long = tgPreview({
      text: `${'a'.repeat(4000)}\n${'b'.repeat(500)}`,
      attachments: [],
      buttons: null,
    });
    expect(long.bubbles.map((b) => b.text.length)).toEqual([4000, 500]);
    const photo = tgPreview({
      text: 'Our menu',
      attachments: [{ type: 'image', url: 'https://example.com/menu.png' }],
      buttons: null,
    });
    expect(photo.bubbles).toEqual([
      { text: 'Our menu', media: { kind: 'Photo', url: 'https://example.com/menu.png' }, inlineKeyboard: [] },
    ]);
    const two = tgPreview({
      text: 'Files',
      attachments: [
        { type: 'file', url: 'https://example.com/a.pdf' },
        { type: 'link', url: 'https://example.com/page' },
      ],
      buttons: null,
    });
    expect(two.bubbles).toEqual([
      { text: '', media: { kind: 'File', url: 'https://example.com/a.pdf' }, inlineKeyboard: [] },
      { text: 'https://example.com/page', inlineKeyboard: [] },
      { text: 'Files', inlineKeyboard: [] },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Button } from '@/lib/schema';
import { tgClientView } from './client-view';
import { TEXT_LIMIT } from './render';

const reply = (text: string): Button => ({ type: 'reply', text });
const inline = (text: string): Button => ({ type: 'inline', text });

describe('the tg client view', () => {
  it('keeps reply and inline buttons as buttons, in their rows', () => {
    expect(tgClientView({ text: 'Choose', attachments: [], buttons: [reply('Yes'), reply('No')] })).toEqual([
      { text: 'Choose', buttons: ['Yes', 'No'], attachments: [] },
    ]);
    const links = [inline('Pay'), { type: 'reply' as const, text: 'Site', url: 'https://example.com' }];
    expect(tgClientView({ text: 'Choose', attachments: [], buttons: links })).toEqual([
      { text: 'Choose', buttons: ['Pay', 'Site'], attachments: [] },
    ]);
  });

  it('shows the hint variant as numbered text without buttons', () => {
    const buttons = { hint: 'Type a number', buttons: [reply('Yes'), reply('No')] };
    expect(tgClientView({ text: 'Choose', attachments: [], buttons })).toEqual([
      { text: 'Choose\n\nType a number\n1. Yes\n2. No', buttons: [], attachments: [] },
    ]);
  });

  it('keeps more than the descriptor’s 100 buttons: the renderer does not number them', () => {
    const many = Array.from({ length: 101 }, (_, i) => reply(`Option ${i + 1}`));
    const [shown] = tgClientView({ text: 'Choose', attachments: [], buttons: many });
    expect(shown.buttons).toHaveLength(101);
  });

  it('splits a text past 4096 characters, the keyboard on its last part', () => {
    const text = 'word '.repeat(1000).trim();
    const shown = tgClientView({ text, attachments: [], buttons: [reply('OK')] });
    expect(shown).toHaveLength(2);
    expect(shown.every((m) => m.text.length <= TEXT_LIMIT)).toBe(true);
    expect(shown.map((m) => m.buttons)).toEqual([[], ['OK']]);
    expect(shown.map((m) => m.text).join(' ')).toBe(text);
  });

  it('captions a single file with a short text, else sends the files first', () => {
    const image = { type: 'image' as const, url: 'https://example.com/a.png' };
    expect(tgClientView({ text: 'Look', attachments: [image], buttons: [reply('OK')] })).toEqual([
      { text: 'Look', buttons: ['OK'], attachments: ['image'] },
    ]);
    const file = { type: 'file' as const, url: 'https://example.com/a.pdf' };
    const link = { type: 'link' as const, url: 'https://example.com' };
    expect(tgClientView({ text: 'Look', attachments: [image, file, link], buttons: null })).toEqual([
      { text: '', buttons: [], attachments: ['image'] },
      { text: '', buttons: [], attachments: ['file'] },
      { text: 'https://example.com', buttons: [], attachments: [] },
      { text: 'Look', buttons: [], attachments: [] },
    ]);
  });
});

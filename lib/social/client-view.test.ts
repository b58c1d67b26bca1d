import { describe, expect, it } from 'vitest';
import { utf8Size } from '@/lib/channels/message-layout';
import type { Button } from '@/lib/schema';
import { socialClientView } from './client-view';
import { INSTAGRAM_TEXT_LIMIT } from './instagram-render';

const options = (...texts: string[]): Button[] => texts.map((text) => ({ type: 'reply', text }));

describe('the Instagram client view', () => {
  it('keeps up to 13 short options as quick replies, numbered in the text as well', () => {
    expect(socialClientView({ text: 'Choose', attachments: [], buttons: options('Yes', 'No') })).toEqual([
      { text: 'Choose\n\n1. Yes\n2. No', buttons: ['Yes', 'No'], attachments: [] },
    ]);
  });

  it('leaves only the numbered text past 13 options, a title past 20 characters and for the hint variant', () => {
    const fourteen = options(...Array.from({ length: 14 }, (_, i) => `Option ${i + 1}`));
    const [many] = socialClientView({ text: 'Choose', attachments: [], buttons: fourteen });
    expect(many.buttons).toEqual([]);
    expect(many.text).toMatch(/^Choose\n\n1\. Option 1\n[\s\S]*\n14\. Option 14$/);
    expect(
      socialClientView({ text: 'Choose', attachments: [], buttons: options('Yes', 'Twenty-one characters') }),
    ).toEqual([{ text: 'Choose\n\n1. Yes\n2. Twenty-one characters', buttons: [], attachments: [] }]);
    const hint = { hint: 'Type a number', buttons: options('Yes', 'No') };
    expect(socialClientView({ text: 'Choose', attachments: [], buttons: hint })).toEqual([
      { text: 'Choose\n\nType a number\n1. Yes\n2. No', buttons: [], attachments: [] },
    ]);
  });

  it('splits a text past 1,000 bytes of UTF-8, the quick replies on its last part', () => {
    // 100 Cyrillic words: 599 characters, but 1,099 bytes.
    const text = 'слово '.repeat(100).trim();
    expect(text.length).toBeLessThan(INSTAGRAM_TEXT_LIMIT);
    const shown = socialClientView({ text, attachments: [], buttons: options('OK') });
    expect(shown).toHaveLength(2);
    expect(shown.every((m) => utf8Size(m.text) <= INSTAGRAM_TEXT_LIMIT)).toBe(true);
    expect(shown.map((m) => m.buttons)).toEqual([[], ['OK']]);
    expect(shown[1].text.endsWith('1. OK')).toBe(true);
  });

  it('sends each file as a message of its own before the text', () => {
    const image = { type: 'image' as const, url: 'https://example.com/a.png' };
    const audio = { type: 'audio' as const, url: 'https://example.com/a.mp3' };
    expect(socialClientView({ text: 'Look', attachments: [image, audio], buttons: null })).toEqual([
      { text: '', buttons: [], attachments: ['image'] },
      { text: '', buttons: [], attachments: ['audio'] },
      { text: 'Look', buttons: [], attachments: [] },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Button } from '@/lib/schema';
import { viberClientView } from './client-view';
import { VIBER_TEXT_LIMIT } from './render';

const options = (...texts: string[]): Button[] => texts.map((text) => ({ type: 'reply', text }));

describe('the Viber client view', () => {
  it('keeps up to 24 buttons as the keyboard’s keys, their text as the client reads it', () => {
    const buttons = [
      ...options('Tea & <cake>'),
      { type: 'reply' as const, text: 'Site', url: 'https://example.com' },
    ];
    expect(viberClientView({ text: 'Choose', attachments: [], buttons })).toEqual([
      { text: 'Choose', buttons: ['Tea & <cake>', 'Site'], attachments: [] },
    ]);
  });

  it('numbers the options past 24 buttons, a title past 250 characters and for the hint variant', () => {
    const many = options(...Array.from({ length: 25 }, (_, i) => `Option ${i + 1}`));
    const [shown] = viberClientView({ text: 'Choose', attachments: [], buttons: many });
    expect(shown.buttons).toEqual([]);
    expect(shown.text).toMatch(/^Choose\n\n1\. Option 1\n[\s\S]*\n25\. Option 25$/);
    const long = 'x'.repeat(251);
    expect(viberClientView({ text: 'Choose', attachments: [], buttons: options('Yes', long) })).toEqual([
      { text: `Choose\n\n1. Yes\n2. ${long}`, buttons: [], attachments: [] },
    ]);
    const hint = { hint: 'Type a number', buttons: options('Yes', 'No') };
    expect(viberClientView({ text: 'Choose', attachments: [], buttons: hint })).toEqual([
      { text: 'Choose\n\nType a number\n1. Yes\n2. No', buttons: [], attachments: [] },
    ]);
  });

  it('splits a text past 7,000 characters, the keyboard on its last part', () => {
    const text = 'word '.repeat(1600).trim();
    const shown = viberClientView({ text, attachments: [], buttons: options('OK') });
    expect(shown).toHaveLength(2);
    expect(shown.every((m) => m.text.length <= VIBER_TEXT_LIMIT)).toBe(true);
    expect(shown.map((m) => m.buttons)).toEqual([[], ['OK']]);
    expect(shown.map((m) => m.text).join(' ')).toBe(text);
  });

  it('sends each file apart, as a picture, a video or else a file', () => {
    const attachments = [
      { type: 'image' as const, url: 'https://example.com/a.png' },
      { type: 'image' as const, url: 'https://example.com/a.webp' },
      { type: 'video' as const, url: 'https://example.com/a.mp4' },
      { type: 'audio' as const, url: 'https://example.com/a.mp3' },
    ];
    expect(viberClientView({ text: 'Look', attachments, buttons: null })).toEqual([
      { text: '', buttons: [], attachments: ['image'] },
      { text: '', buttons: [], attachments: ['file'] },
      { text: '', buttons: [], attachments: ['video'] },
      { text: '', buttons: [], attachments: ['file'] },
      { text: 'Look', buttons: [], attachments: [] },
    ]);
  });
});

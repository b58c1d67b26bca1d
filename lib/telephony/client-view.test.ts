import { describe, expect, it } from 'vitest';
import type { Button } from '@/lib/schema';
import { telephonyClientView } from './client-view';
import { MAX_SPOKEN_CHARS } from './verbs';

const options = (...texts: string[]): Button[] => texts.map((text) => ({ type: 'reply', text }));

describe('the telephony client view', () => {
  it('speaks the options as keys to press; a call shows no buttons', () => {
    expect(telephonyClientView({ text: 'Choose', attachments: [], buttons: options('Yes', 'No') })).toEqual([
      { text: 'Choose\nPress 1 for Yes.\nPress 2 for No.', buttons: [], attachments: [] },
    ]);
  });

  it('names at most 9 options, and says the hint variant’s hint before them', () => {
    const ten = options(...Array.from({ length: 10 }, (_, i) => `Option ${i + 1}`));
    const [shown] = telephonyClientView({ text: 'Choose', attachments: [], buttons: ten });
    expect(shown.text).toMatch(/Press 9 for Option 9\.$/);
    expect(shown.text).not.toContain('Option 10');
    const hint = { hint: 'Press a key', buttons: options('Yes') };
    expect(telephonyClientView({ text: 'Choose', attachments: [], buttons: hint })).toEqual([
      { text: 'Choose\nPress a key\nPress 1 for Yes.', buttons: [], attachments: [] },
    ]);
  });

  it('cuts a text past 3,000 characters instead of splitting it', () => {
    const [shown, ...more] = telephonyClientView({
      text: 'word '.repeat(1000),
      attachments: [],
      buttons: null,
    });
    expect(more).toEqual([]);
    expect(shown.text).toHaveLength(MAX_SPOKEN_CHARS);
    expect(shown.text.endsWith('…')).toBe(true);
  });

  it('says nothing of a file', () => {
    const image = { type: 'image' as const, url: 'https://example.com/a.png' };
    expect(telephonyClientView({ text: '', attachments: [image], buttons: null })).toEqual([]);
    expect(telephonyClientView({ text: 'Look', attachments: [image], buttons: null })).toEqual([
      { text: 'Look', buttons: [], attachments: [] },
    ]);
  });
});

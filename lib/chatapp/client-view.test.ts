import { describe, expect, it } from 'vitest';
import type { Button } from '@/lib/schema';
import { chatappClientView } from './client-view';
import { CLOUD_TEXT_LIMIT, INTERACTIVE_BODY_LIMIT } from './cloud-render';

const options = (...texts: string[]): Button[] => texts.map((text) => ({ type: 'reply', text }));

describe('the chat-app client view (Cloud API)', () => {
  it('keeps up to 3 short options as reply buttons and up to 10 as a list’s rows', () => {
    expect(chatappClientView({ text: 'Choose', attachments: [], buttons: options('Yes', 'No') })).toEqual([
      { text: 'Choose', buttons: ['Yes', 'No'], attachments: [] },
    ]);
    const list = options('One', 'Two', 'Three', 'Four', 'A title of 24 characters');
    expect(chatappClientView({ text: 'Choose', attachments: [], buttons: list })).toEqual([
      {
        text: 'Choose',
        buttons: ['One', 'Two', 'Three', 'Four', 'A title of 24 characters'],
        attachments: [],
      },
    ]);
  });

  it('numbers the options past 10, a title past 24 characters and the hint variant, with no buttons', () => {
    const eleven = options(...Array.from({ length: 11 }, (_, i) => `Option ${i + 1}`));
    const [many] = chatappClientView({ text: 'Choose', attachments: [], buttons: eleven });
    expect(many.buttons).toEqual([]);
    expect(many.text).toMatch(/^Choose\n\n1\. Option 1\n2\. Option 2\n[\s\S]*\n11\. Option 11$/);
    expect(
      chatappClientView({
        text: 'Choose',
        attachments: [],
        buttons: options('Yes', 'A title of 25 characters!'),
      }),
    ).toEqual([{ text: 'Choose\n\n1. Yes\n2. A title of 25 characters!', buttons: [], attachments: [] }]);
    const hint = { hint: 'Type a number', buttons: options('Yes', 'No') };
    expect(chatappClientView({ text: 'Choose', attachments: [], buttons: hint })).toEqual([
      { text: 'Choose\n\nType a number\n1. Yes\n2. No', buttons: [], attachments: [] },
    ]);
  });

  it('splits a text past 4096 characters, the buttons on its last part', () => {
    const text = 'word '.repeat(1000).trim();
    const plain = chatappClientView({ text, attachments: [], buttons: null });
    expect(plain).toHaveLength(2);
    expect(plain.every((m) => m.text.length <= CLOUD_TEXT_LIMIT && !m.buttons.length)).toBe(true);
    const withButtons = chatappClientView({ text, attachments: [], buttons: options('OK') });
    expect(withButtons.map((m) => m.buttons)).toEqual([[], ['OK']]);
    expect(withButtons[1].text.length).toBeLessThanOrEqual(INTERACTIVE_BODY_LIMIT);
    expect(withButtons.map((m) => m.text).join(' ')).toBe(text);
  });

  it('captions a single file unless buttons need an interactive message after it', () => {
    const image = { type: 'image' as const, url: 'https://example.com/a.png' };
    expect(chatappClientView({ text: 'Look', attachments: [image], buttons: null })).toEqual([
      { text: 'Look', buttons: [], attachments: ['image'] },
    ]);
    const file = { type: 'file' as const, url: 'https://example.com/price.pdf' };
    expect(chatappClientView({ text: 'Look', attachments: [file], buttons: options('OK') })).toEqual([
      { text: '', buttons: [], attachments: ['file'] },
      { text: 'Look', buttons: ['OK'], attachments: [] },
    ]);
  });
});

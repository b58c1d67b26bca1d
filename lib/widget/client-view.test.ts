import { describe, expect, it } from 'vitest';
import type { Button } from '@/lib/schema';
import { widgetClientView } from './client-view';

const options = (...texts: string[]): Button[] => texts.map((text) => ({ type: 'reply', text }));

describe('the widget client view', () => {
  it('keeps buttons as buttons, the message’s own (inline, links) before the reply buttons', () => {
    const buttons: Button[] = [
      { type: 'reply', text: 'B', line: 1 },
      { type: 'reply', text: 'A', line: 0 },
      { type: 'inline', text: 'Pay' },
    ];
    expect(widgetClientView({ text: 'Choose', attachments: [], buttons })).toEqual([
      { text: 'Choose', buttons: ['Pay', 'A', 'B'], attachments: [] },
    ]);
  });

  it('has no limit on buttons, and shows the hint variant’s buttons, its hint only as a missing text', () => {
    const many = options(...Array.from({ length: 30 }, (_, i) => `Option ${i + 1}`));
    expect(widgetClientView({ text: 'Choose', attachments: [], buttons: many })[0].buttons).toHaveLength(30);
    const hint = { hint: 'Type a number', buttons: options('Yes', 'No') };
    expect(widgetClientView({ text: 'Choose', attachments: [], buttons: hint })).toEqual([
      { text: 'Choose', buttons: ['Yes', 'No'], attachments: [] },
    ]);
    expect(widgetClientView({ text: '', attachments: [], buttons: hint })).toEqual([
      { text: 'Type a number', buttons: ['Yes', 'No'], attachments: [] },
    ]);
  });

  it('shows a long text whole, in one bubble', () => {
    const text = 'word '.repeat(3000).trim();
    expect(widgetClientView({ text, attachments: [], buttons: null })).toEqual([
      { text, buttons: [], attachments: [] },
    ]);
  });

  it('shows the files in the bubble, leaving out one whose address is not http(s)', () => {
    const attachments = [
      { type: 'image' as const, url: 'https://example.com/a.png' },
      { type: 'link' as const, url: 'javascript:alert(1)' },
    ];
    expect(widgetClientView({ text: 'Look', attachments, buttons: null })).toEqual([
      { text: 'Look', buttons: [], attachments: ['image'] },
    ]);
  });
});

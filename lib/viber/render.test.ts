import { describe, expect, it } from 'vitest';
import { inboundOf, quoteTokens, readCallback } from './callbacks';
import {
  KEYBOARD_BUTTONS_MAX,
  renderViberMessage,
  senderName,
  VIBER_TEXT_LIMIT,
  viberKeyboard,
} from './render';

const msg = (over: Partial<Parameters<typeof renderViberMessage>[0]>) =>
  renderViberMessage({ text: '', attachments: [], buttons: null, ...over });

describe('renderViberMessage', () => {
  it('puts the options on a keyboard of reply buttons on the text, in the designer’s rows', () => {
    const [part] = msg({
      text: 'Pay now?',
      buttons: [
        { type: 'reply', text: 'Yes', line: 0 },
        { type: 'reply', text: 'No', line: 0 },
        { type: 'reply', text: 'Later <soon>', line: 1 },
        { type: 'reply', text: 'Site', url: 'https://example.com/' },
      ],
    });
    expect(part).toMatchObject({ type: 'text', text: 'Pay now?' });
    expect(part.keyboard?.Buttons).toEqual([
      { Columns: 3, Rows: 1, ActionType: 'reply', ActionBody: 'Yes', Text: 'Yes' },
      { Columns: 3, Rows: 1, ActionType: 'reply', ActionBody: 'No', Text: 'No' },
      { Columns: 6, Rows: 1, ActionType: 'reply', ActionBody: 'Later <soon>', Text: 'Later &lt;soon&gt;' },
      { Columns: 6, Rows: 1, ActionType: 'open-url', ActionBody: 'https://example.com/', Text: 'Site' },
    ]);
  });

  it('wraps a row of more than 6 buttons and shares the columns unevenly when it must', () => {
    const keys = viberKeyboard(
      Array.from({ length: 10 }, (_, i) => ({ type: 'reply', text: `${i}`, line: 0 })),
    ).Buttons;
    expect(keys.map((k) => k.Columns)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 1, 1]);
  });

  it('shows more than 24 options, a long title and the hint variant as numbered text, with no keyboard', () => {
    const many = Array.from({ length: KEYBOARD_BUTTONS_MAX + 1 }, (_, i) => ({
      type: 'reply' as const,
      text: `Size ${i + 1}`,
    }));
    const [over] = msg({ text: 'Choose', buttons: many });
    expect(over.keyboard).toBeUndefined();
    expect(over).toMatchObject({ type: 'text', text: expect.stringContaining('\n25. Size 25') });
    const [long] = msg({ text: 'Choose', buttons: [{ type: 'reply', text: 'x'.repeat(251) }] });
    expect(long.keyboard).toBeUndefined();
    const [hint] = msg({
      text: 'Choose',
      buttons: { hint: 'Type a number', buttons: [{ type: 'reply', text: 'A' }] },
    });
    expect(hint).toEqual({ type: 'text', text: 'Choose\n\nType a number\n1. A' });
    expect(msg({ text: 'Choose', buttons: many.slice(0, 24) })[0].keyboard?.Buttons).toHaveLength(24);
  });

  it('splits a text over 7,000 characters, the keyboard on the last part', () => {
    const parts = msg({ text: 'word '.repeat(3000), buttons: [{ type: 'reply', text: 'OK' }] });
    expect(parts).toHaveLength(3);
    for (const p of parts) expect(p.type === 'text' && p.text.length <= VIBER_TEXT_LIMIT).toBe(true);
    expect(parts.map((p) => Boolean(p.keyboard))).toEqual([false, false, true]);
  });

  it('sends pictures, MP4 videos and files by address first, other kinds as files, links in the text', () => {
    const parts = msg({
      text: 'Here',
      attachments: [
        { type: 'image', url: 'https://h.example/api/files/a/photo.png?sig=1' },
        { type: 'image', url: 'https://h.example/api/files/b/photo.webp?sig=1' },
        { type: 'video', url: 'https://h.example/api/files/c/clip.mp4?sig=1' },
        { type: 'audio', url: 'https://h.example/api/files/d/voice.mp3?sig=1' },
        { type: 'link', url: 'https://example.com/page' },
      ],
    });
    expect(parts).toEqual([
      { type: 'picture', text: '', media: 'https://h.example/api/files/a/photo.png?sig=1' },
      { type: 'file', media: 'https://h.example/api/files/b/photo.webp?sig=1', file_name: 'photo.webp' },
      { type: 'video', media: 'https://h.example/api/files/c/clip.mp4?sig=1' },
      { type: 'file', media: 'https://h.example/api/files/d/voice.mp3?sig=1', file_name: 'voice.mp3' },
      { type: 'text', text: 'Here\nhttps://example.com/page' },
    ]);
  });

  it('gives a keyboard with no text a text to ride on; keeps the sender’s name within 28 characters', () => {
    expect(msg({ buttons: [{ type: 'reply', text: 'A' }] })[0]).toMatchObject({
      type: 'text',
      text: 'Choose an option',
    });
    expect(senderName('A very long bot name that goes on and on')).toHaveLength(28);
  });
});

describe('Viber callbacks', () => {
  it('keep 64-bit message tokens whole', () => {
    const raw = JSON.parse(
      quoteTokens('{"event":"delivered","timestamp":1,"message_token":4912661846655238145,"user_id":"u1"}'),
    );
    const read = readCallback(raw);
    expect(read.ok && inboundOf(read.callback)).toEqual({
      kind: 'status',
      token: '4912661846655238145',
      user: 'u1',
      status: 'delivered',
    });
  });

  it('read a message with a picture, a contact and a location; refuse what is not Viber’s', () => {
    const of = (message: object) => {
      const read = readCallback({
        event: 'message',
        timestamp: 1,
        message_token: '5',
        sender: { id: 'u1', name: 'Ann' },
        message,
      });
      return read.ok ? inboundOf(read.callback) : read;
    };
    expect(of({ type: 'picture', media: 'https://dl.example/p.jpg', text: 'look' })).toMatchObject({
      text: 'look',
      files: [{ type: 'image', url: 'https://dl.example/p.jpg' }],
    });
    expect(of({ type: 'contact', contact: { name: 'Bob', phone_number: '+15550001' } })).toMatchObject({
      text: '+15550001 Bob',
    });
    expect(of({ type: 'location', location: { lat: 1.5, lon: 2 } })).toMatchObject({ text: '1.5,2' });
    expect(readCallback({ hello: 1 }).ok).toBe(false);
    expect(readCallback({ event: 'client_status', timestamp: 1 })).toMatchObject({ ok: true });
  });
});

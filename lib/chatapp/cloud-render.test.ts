import { describe, expect, it } from 'vitest';
import type { Button } from '@/lib/schema';
import {
  cloudButtonsLayout,
  flatTemplateParameter,
  LIST_BUTTON_TEXT,
  renderCloudMessage,
  renderCloudTemplate,
  templateLeftOut,
} from './cloud-render';
import { windowOpen } from './cloud-window';

const to = '79001234567';
const b = (text: string, extra: Partial<Button> = {}): Button => ({ type: 'reply', text, ...extra });
const msg = (
  text: string,
  buttons: Parameters<typeof renderCloudMessage>[0]['buttons'] = null,
  attachments = [],
) => renderCloudMessage({ text, buttons, attachments }, to);

describe('a message on the Cloud API', () => {
  it('sends plain text, split past 4096 characters', () => {
    const sends = msg(`${'a '.repeat(2500)}end`);
    expect(sends.map((s) => s.type)).toEqual(['text', 'text']);
    for (const s of sends) expect((s.text as { body: string }).body.length).toBeLessThanOrEqual(4096);
    expect(sends[0]).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual', to });
  });

  it('shows up to 3 short buttons as reply buttons whose id is the whole text', () => {
    const [send] = msg('Pay?', [b('Yes'), b('No')]);
    expect(send).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Pay?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'Yes', title: 'Yes' } },
            { type: 'reply', reply: { id: 'No', title: 'No' } },
          ],
        },
      },
    });
  });

  it('shows 4 to 10 buttons (or titles over 20 characters) as a list, more as numbered text', () => {
    const four = ['One', 'Two', 'Three', 'Four'].map((t) => b(t));
    expect(cloudButtonsLayout(four)).toBe('list');
    expect(cloudButtonsLayout([b('A title of 21 letters')])).toBe('list');
    const [list] = msg('Pick', four);
    expect(list).toMatchObject({
      interactive: {
        type: 'list',
        action: { button: LIST_BUTTON_TEXT, sections: [{ rows: [{ id: 'One' }, {}, {}, {}] }] },
      },
    });
    const eleven = Array.from({ length: 11 }, (_, i) => b(`Option ${i + 1}`));
    expect(cloudButtonsLayout(eleven)).toBe('numbered_text');
    const [numbered] = msg('Pick', eleven);
    expect(numbered.type).toBe('text');
    expect((numbered.text as { body: string }).body).toBe(
      `Pick\n\n${eleven.map((x, i) => `${i + 1}. ${x.text}`).join('\n')}`,
    );
    // A title over 24 characters, or two alike, cannot be a row either.
    expect(cloudButtonsLayout([b('x'.repeat(25))])).toBe('numbered_text');
    expect(cloudButtonsLayout([b('Same'), b('Same')])).toBe('numbered_text');
  });

  it('sends the hint variant as its hint and numbered options', () => {
    const [send] = msg('Choose a size', { hint: 'Reply with a number', buttons: [b('S'), b('M')] });
    expect((send.text as { body: string }).body).toBe('Choose a size\n\nReply with a number\n1. S\n2. M');
  });

  it('keeps the text before an interactive body of at most 1024 characters as plain messages', () => {
    const sends = msg(`${'word '.repeat(400)}last`, [b('OK')]);
    expect(sends.map((s) => s.type)).toEqual(['text', 'interactive']);
    const body = (sends[1].interactive as { body: { text: string } }).body.text;
    expect(body.length).toBeLessThanOrEqual(1024);
    expect(body.endsWith('last')).toBe(true);
  });

  it('turns URL buttons into address lines beside the other buttons', () => {
    const [send] = msg('Order 7', [b('Track', { type: 'inline', url: 'https://t.example/7' }), b('Help')]);
    expect(send).toMatchObject({
      type: 'interactive',
      interactive: {
        body: { text: 'Order 7\nTrack: https://t.example/7' },
        action: { buttons: [{ reply: { id: 'Help' } }] },
      },
    });
  });

  it('sends files first by link, one of them captioned with a short text', () => {
    const photo = [{ type: 'image' as const, url: 'https://f.example/a.png' }];
    expect(msg('Look', null, photo as never)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'image',
        image: { link: photo[0].url, caption: 'Look' },
      },
    ]);
    const two = [
      { type: 'file' as const, url: 'https://f.example/a.pdf' },
      { type: 'audio' as const, url: 'https://f.example/a.ogg' },
    ];
    expect(msg('Files', null, two as never).map((s) => s.type)).toEqual(['document', 'audio', 'text']);
  });

  it('titles a document with its file name, as the client sees it', () => {
    const file = [{ type: 'file' as const, url: 'https://f.example/files/Price%20list.pdf?sig=x' }];
    expect(msg('Prices', null, file as never)).toEqual([
      expect.objectContaining({
        type: 'document',
        document: { link: file[0].url, filename: 'Price list.pdf', caption: 'Prices' },
      }),
    ]);
    // An address without a name still gives the document one.
    const bare = [{ type: 'file' as const, url: 'https://f.example/' }];
    expect(msg('', null, bare as never)[0]).toMatchObject({ document: { filename: 'file' } });
  });

  it('builds a template message with its body parameters', () => {
    expect(renderCloudTemplate(to, { name: 'follow_up', language: 'en_US' }, ['Ann'])).toMatchObject({
      type: 'template',
      template: {
        name: 'follow_up',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }] }],
      },
    });
  });

  it('flattens what the API refuses in a template parameter: line breaks, tabs, five spaces or more', () => {
    expect(flatTemplateParameter('Order:\n- pizza\r\n\n- cola\tx2')).toBe('Order: - pizza - cola x2');
    expect(flatTemplateParameter('a    b     c')).toBe('a    b c');
    const [param] = (
      renderCloudTemplate(to, { name: 't', language: 'en' }, ['one\ntwo']).template as {
        components: { parameters: { text: string }[] }[];
      }
    ).components[0].parameters;
    expect(param.text).toBe('one two');
  });

  it('says what a template send leaves out of the message', () => {
    const message = {
      text: 'Ready',
      buttons: [b('Track'), b('Site', { url: 'https://x.example' })],
      attachments: [
        { type: 'image' as const, url: 'https://f.example/a.png' },
        { type: 'link' as const, url: 'https://f.example/page' },
      ],
    };
    expect(templateLeftOut(message, true)).toBe(
      'its buttons (Track, Site) and its 2 attachments (a.png, https://f.example/page)',
    );
    expect(templateLeftOut({ text: 'Ready', buttons: null, attachments: [] }, false)).toBe('its text');
    expect(templateLeftOut({ text: 'Ready', buttons: null, attachments: [] }, true)).toBeNull();
  });
});

describe('the customer service window', () => {
  const at = Date.parse('2026-12-05T10:00:00Z');
  const iso = (ms: number) => new Date(ms).toISOString();
  it('is open for 24 hours after the client wrote, unless the API refused since', () => {
    expect(windowOpen(iso(at), null, at + 1000)).toBe(true);
    expect(windowOpen(iso(at), null, at + 24 * 3600_000)).toBe(false);
    expect(windowOpen(null, null, at)).toBe(false);
    // Refused after the client wrote: closed until they write again.
    expect(windowOpen(iso(at), iso(at + 5000), at + 6000)).toBe(false);
    expect(windowOpen(iso(at + 7000), iso(at + 5000), at + 8000)).toBe(true);
    // A message within the refusal's second may be from before it (the messenger's times are whole seconds).
    expect(windowOpen(iso(at + 600), iso(at + 400), at + 1000)).toBe(false);
    expect(windowOpen(iso(at + 1000), iso(at + 400), at + 2000)).toBe(true);
  });
});

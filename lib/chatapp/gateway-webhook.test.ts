import { describe, expect, it } from 'vitest';
import { numberedChoice } from '@/lib/channels/message-layout';
import { renderGatewayMessage } from './gateway-render';
import { gatewayChannelStatus, gatewayChatId, gatewayDelivery, gatewayPlatformId } from './gateway-webhook';

const envelope = (event: string, payload: unknown) => ({ event, session: 'default', payload, me: null });

describe('a session gateway’s webhooks', () => {
  it('maps the session’s states to the interface’s status 0–3', () => {
    expect(
      ['STARTING', 'SCAN_QR_CODE', 'PASSKEY_REQUIRED', 'WORKING', 'FAILED', 'STOPPED'].map(
        gatewayChannelStatus,
      ),
    ).toEqual([0, 0, 0, 1, 2, 3]);
  });

  it('names a person by their number whatever the suffix; a hidden number keeps its id; groups are nobody', () => {
    expect(gatewayPlatformId('79001234567@c.us')).toBe('79001234567');
    expect(gatewayPlatformId('79001234567@s.whatsapp.net')).toBe('79001234567');
    expect(gatewayPlatformId('123456789012345@lid')).toBe('123456789012345@lid');
    expect(gatewayPlatformId('120363000000000000@g.us')).toBeUndefined();
    expect(gatewayPlatformId('status@broadcast')).toBeUndefined();
    expect(gatewayChatId('+7 (900) 123-45-67')).toBe('79001234567@c.us');
    expect(gatewayChatId('123456789012345@lid')).toBe('123456789012345@lid');
  });

  it('reads a message, an ack and a session’s state; ignores its own messages and other events', () => {
    const message = gatewayDelivery(
      envelope('message', {
        id: 'false_1@c.us_A',
        timestamp: 1700000000,
        from: '79001234567@c.us',
        body: 'hi',
      }),
    );
    expect(message).toMatchObject({
      kind: 'update',
      externalId: 'false_1@c.us_A',
      chat: '79001234567',
      order: 1700000000,
    });
    const ack = gatewayDelivery(
      envelope('message.ack', { id: 'true_x', to: '79001234567@c.us', ack: 2, ackName: 'DEVICE' }),
    );
    expect(ack).toMatchObject({ kind: 'update', externalId: 'true_x:delivered' });
    expect(
      gatewayDelivery({
        ...envelope('session.status', { status: 'WORKING' }),
        me: { id: '15550002222@c.us', pushName: 'Pizza' },
      }),
    ).toEqual({
      kind: 'session',
      session: 'default',
      state: 'WORKING',
      me: { phone: '15550002222', name: 'Pizza' },
    });
    expect(
      gatewayDelivery(
        envelope('message', { id: 'a', timestamp: 1, from: '79001234567@c.us', fromMe: true, body: 'x' }),
      ),
    ).toMatchObject({ kind: 'ignore' });
    expect(gatewayDelivery(envelope('presence.update', {}))).toMatchObject({ kind: 'ignore' });
    expect(gatewayDelivery({ event: 'message' })).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('session'),
    });
  });
});

describe('sending through a gateway', () => {
  const yesNo = [
    { type: 'reply' as const, text: 'Yes' },
    { type: 'reply' as const, text: 'No' },
  ];

  it('shows buttons as numbered options and answers a typed number with the option', () => {
    expect(renderGatewayMessage({ text: 'Pay?', attachments: [], buttons: yesNo })).toEqual([
      { kind: 'text', text: 'Pay?\n\n1. Yes\n2. No' },
    ]);
    expect(numberedChoice(' 2. ', yesNo)).toBe('No');
    expect(numberedChoice('3', yesNo)).toBeUndefined();
    expect(numberedChoice('2 please', yesNo)).toBeUndefined();
  });

  it('sends a lone file with the text as its caption, more files before the text', () => {
    expect(
      renderGatewayMessage({
        text: 'Receipt',
        attachments: [{ type: 'file', url: 'https://x.example/a%20b.pdf' }],
        buttons: null,
      }),
    ).toEqual([
      {
        kind: 'file',
        url: 'https://x.example/a%20b.pdf',
        filename: 'a b.pdf',
        mimetype: 'application/pdf',
        caption: 'Receipt',
      },
    ]);
    const two = renderGatewayMessage({
      text: 'Two',
      attachments: [
        { type: 'image', url: 'https://x.example/1.png' },
        { type: 'image', url: 'https://x.example/2.png' },
      ],
      buttons: null,
    });
    expect(two.map((s) => s.kind)).toEqual(['image', 'image', 'text']);
    // A file's type is its name's, or its kind's when the name says none (WAHA requires one).
    const typed = renderGatewayMessage({
      text: '',
      attachments: [
        { type: 'image', url: 'https://x.example/photo' },
        { type: 'file', url: 'https://x.example/report.DOCX' },
        { type: 'video', url: 'https://x.example/clip.pdf' },
      ],
      buttons: null,
    });
    expect(typed.map((s) => (s.kind === 'text' ? s.text : s.mimetype))).toEqual([
      'image/jpeg',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'video/mp4',
    ]);
  });
});

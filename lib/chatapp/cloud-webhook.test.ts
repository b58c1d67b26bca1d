import { describe, expect, it } from 'vitest';
import { cloudUpdates, parseCloudItem } from './cloud-webhook';

const metadata = { display_phone_number: '15550001111', phone_number_id: '1001' };
const hook = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'waba',
      changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, ...value } }],
    },
  ],
});
const contacts = [{ profile: { name: 'Ann' }, wa_id: '79001234567' }];
const message = (extra: Record<string, unknown>) => ({
  from: '79001234567',
  id: 'wamid.1',
  timestamp: '1700000000',
  ...extra,
});

function only(body: unknown) {
  const result = cloudUpdates(body);
  if (!result.ok) throw new Error(result.reason);
  expect(result.updates).toHaveLength(1);
  return result.updates[0];
}

describe('the Cloud API webhook', () => {
  it('reads a text message: its id, its time as the order, the sender as the chat', () => {
    const update = only(hook({ contacts, messages: [message({ type: 'text', text: { body: 'Hi' } })] }));
    expect(update).toMatchObject({ externalId: 'wamid.1', order: 1700000000, chat: '79001234567' });
    expect(update.parsed).toEqual({
      kind: 'message',
      phoneNumberId: '1001',
      from: '79001234567',
      name: 'Ann',
      messageId: 'wamid.1',
      sentAt: 1700000000,
      text: 'Hi',
      attachments: [],
    });
    // The stored payload reads back the same.
    expect(parseCloudItem(JSON.parse(JSON.stringify(update.payload)))).toEqual(update.parsed);
  });

  it('answers a pressed button or list row with its id, the option’s whole text', () => {
    const pressed = only(
      hook({
        messages: [
          message({
            type: 'interactive',
            interactive: { type: 'button_reply', button_reply: { id: 'Yes, please', title: 'Yes, please' } },
          }),
        ],
      }),
    );
    expect(pressed.parsed).toMatchObject({ text: 'Yes, please' });
    const row = only(
      hook({
        messages: [
          message({
            type: 'interactive',
            interactive: { type: 'list_reply', list_reply: { id: 'Large', title: 'Large' } },
          }),
        ],
      }),
    );
    expect(row.parsed).toMatchObject({ text: 'Large' });
  });

  it('reads media, locations and contacts', () => {
    const photo = only(
      hook({
        messages: [message({ type: 'image', image: { id: 'm1', mime_type: 'image/jpeg', caption: 'Look' } })],
      }),
    );
    expect(photo.parsed).toMatchObject({
      text: 'Look',
      attachments: [{ type: 'image', mediaId: 'm1', mime: 'image/jpeg' }],
    });
    const place = only(
      hook({ messages: [message({ type: 'location', location: { latitude: 55.75, longitude: 37.62 } })] }),
    );
    expect(place.parsed).toMatchObject({
      text: '55.75,37.62',
      location: { latitude: 55.75, longitude: 37.62 },
    });
    const card = only(
      hook({
        messages: [
          message({
            type: 'contacts',
            contacts: [{ name: { formatted_name: 'Bob' }, phones: [{ phone: '+7 900 000-00-01' }] }],
          }),
        ],
      }),
    );
    expect(card.parsed).toMatchObject({ text: '+7 900 000-00-01' });
  });

  it('reads status reports, a failure with its code, each status an update of its own', () => {
    const failed = only(
      hook({
        statuses: [
          {
            id: 'wamid.9',
            status: 'failed',
            timestamp: '1700000100',
            recipient_id: '79001234567',
            errors: [
              {
                code: 131047,
                title: 'Re-engagement message',
                error_data: { details: 'More than 24 hours have passed' },
              },
            ],
          },
        ],
      }),
    );
    expect(failed).toMatchObject({ externalId: 'wamid.9:failed', chat: '79001234567' });
    expect(failed.parsed).toEqual({
      kind: 'status',
      phoneNumberId: '1001',
      messageId: 'wamid.9',
      recipient: '79001234567',
      status: 'failed',
      at: 1700000100,
      error: { code: 131047, text: '131047 Re-engagement message: More than 24 hours have passed' },
    });
  });

  it('ignores what the bot has nothing to do with, and refuses what is not this webhook', () => {
    expect(
      only(
        hook({ messages: [message({ type: 'reaction', reaction: { message_id: 'wamid.0', emoji: '👍' } })] }),
      ).parsed,
    ).toMatchObject({ kind: 'ignore' });
    expect(cloudUpdates({ object: 'page', entry: [] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('object'),
    });
    const other = {
      object: 'whatsapp_business_account',
      entry: [{ id: 'w', changes: [{ field: 'account_update', value: {} }] }],
    };
    expect(cloudUpdates(other)).toEqual({ ok: true, updates: [] });
    expect(only(hook({ messages: [{ id: 'wamid.x' }] })).parsed).toMatchObject({ kind: 'invalid' });
  });
});

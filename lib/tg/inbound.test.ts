import { describe, expect, it } from 'vitest';
import { parseUpdate } from './inbound';
import { callbackData } from './render';

const from = {
  id: 111,
  is_bot: false,
  first_name: 'Anna',
  last_name: 'Ivanova',
  username: 'anna_i',
  language_code: 'en',
};
const chat = { id: 111, type: 'private', first_name: 'Anna', last_name: 'Ivanova', username: 'anna_i' };
const message = (fields: Record<string, unknown>) => ({
  update_id: 10,
  message: { message_id: 5, date: 1_700_000_000, chat, from, ...fields },
});
const client = { platformId: '111', name: 'Anna Ivanova', username: 'anna_i', clientType: 1 };

describe('reading a Bot API update', () => {
  it('reads a text message with the client identity', () => {
    expect(parseUpdate(message({ text: 'Hello' }))).toEqual({
      kind: 'message',
      updateId: 10,
      client,
      chatId: 111,
      chatType: 'private',
      senderId: 111,
      messageId: 5,
      text: 'Hello',
      attachments: [],
    });
  });

  it('exposes /start with its payload, and other commands', () => {
    const start = parseUpdate(
      message({ text: '/start promo_42', entities: [{ type: 'bot_command', offset: 0, length: 6 }] }),
    );
    expect(start).toMatchObject({ text: '/start promo_42', command: { name: 'start', payload: 'promo_42' } });
    expect(parseUpdate(message({ text: '/help' }))).toMatchObject({ command: { name: 'help', payload: '' } });
    expect(parseUpdate(message({ text: '/help@pizza_bot' }), { botUsername: 'Pizza_Bot' })).toMatchObject({
      command: { name: 'help', payload: '' },
    });
    expect(parseUpdate(message({ text: '/help@other_bot' }), { botUsername: 'pizza_bot' })).toMatchObject({
      kind: 'ignore',
      reason: 'a command for another bot',
    });
    expect(parseUpdate(message({ text: 'a /start in the middle' }))).not.toHaveProperty('command');
  });

  it('reads media as attachments with file ids and the caption as text', () => {
    const photo = parseUpdate(
      message({
        caption: 'Look',
        photo: [
          { file_id: 'small', file_unique_id: 's', width: 90, height: 90 },
          { file_id: 'large', file_unique_id: 'l', width: 1280, height: 1280 },
        ],
      }),
    );
    expect(photo).toMatchObject({ text: 'Look', attachments: [{ type: 'image', fileId: 'large' }] });
    const kinds = [
      [{ document: { file_id: 'd1' } }, { type: 'file', fileId: 'd1' }],
      [{ audio: { file_id: 'a1' } }, { type: 'audio', fileId: 'a1' }],
      [{ video: { file_id: 'v1' } }, { type: 'video', fileId: 'v1' }],
      [{ voice: { file_id: 'vo1' } }, { type: 'audio', fileId: 'vo1', voice: true }],
      [
        { animation: { file_id: 'g1' }, document: { file_id: 'g1' } },
        { type: 'video', fileId: 'g1' },
      ],
    ] as const;
    for (const [fields, attachment] of kinds)
      expect(parseUpdate(message(fields))).toMatchObject({ text: '', attachments: [attachment] });
  });

  it('reads a location as lat,lon text and a contact as the phone, the client phone only when it is theirs', () => {
    expect(parseUpdate(message({ location: { latitude: 55.75, longitude: 37.61 } }))).toMatchObject({
      text: '55.75,37.61',
      location: { latitude: 55.75, longitude: 37.61 },
    });
    const own = parseUpdate(
      message({ contact: { phone_number: '+79991234567', first_name: 'Anna', user_id: 111 } }),
    );
    expect(own).toMatchObject({ text: '+79991234567', phone: '+79991234567' });
    const someoneElse = parseUpdate(
      message({ contact: { phone_number: '+15550000', first_name: 'Bob', user_id: 222 } }),
    );
    expect(someoneElse).toMatchObject({ text: '+15550000' });
    expect(someoneElse).not.toHaveProperty('phone');
  });

  it('turns a pressed button into its text, with the query id to answer', () => {
    const long = 'A button text that is far too long to fit into sixty-four bytes of data';
    const id = callbackData({ type: 'inline', text: long });
    const keyboard = {
      inline_keyboard: [
        [
          { text: long, callback_data: id },
          { text: 'Yes', callback_data: 'Yes' },
        ],
      ],
    };
    const press = (data: string, withMessage = true) =>
      parseUpdate(
        {
          update_id: 11,
          callback_query: {
            id: 'cq1',
            from,
            chat_instance: '1',
            data,
            ...(withMessage ? { message: { message_id: 9, date: 1, chat, reply_markup: keyboard } } : {}),
          },
        },
        { callbackTexts: { [id]: long } },
      );
    expect(press('Yes')).toEqual({
      kind: 'message',
      updateId: 11,
      client,
      chatId: 111,
      chatType: 'private',
      senderId: 111,
      messageId: 9,
      text: 'Yes',
      attachments: [],
      callbackQueryId: 'cq1',
    });
    expect(press(id)).toMatchObject({ text: long, callbackQueryId: 'cq1' });
    expect(press(id, false)).toMatchObject({ text: long, chatId: 111 });
    expect(press('bb:0000000000')).toMatchObject({ kind: 'ignore', callbackQueryId: 'cq1' });
  });

  it('ignores edited messages and updates it does not handle', () => {
    expect(
      parseUpdate({ update_id: 12, edited_message: { message_id: 5, date: 1, chat, text: 'x' } }),
    ).toEqual({
      kind: 'ignore',
      updateId: 12,
      reason: 'edited messages are ignored: the bot answered the first version',
    });
    expect(parseUpdate({ update_id: 13, chat_member: {} })).toMatchObject({
      kind: 'ignore',
      updateId: 13,
    });
    expect(parseUpdate({ update_id: 14 })).toMatchObject({
      kind: 'ignore',
      reason: 'updates of kind unknown are not handled',
    });
    expect(parseUpdate(message({ sticker: { file_id: 's' } }))).toMatchObject({ kind: 'ignore' });
  });

  it('reads business connections and business messages with their connection id', () => {
    expect(
      parseUpdate({
        update_id: 20,
        business_connection: {
          id: 'bc1',
          user: from,
          user_chat_id: 111,
          date: 1,
          rights: { can_reply: true },
          is_enabled: true,
        },
      }),
    ).toEqual({
      kind: 'business_connection',
      updateId: 20,
      connectionId: 'bc1',
      userId: 111,
      userChatId: 111,
      enabled: true,
      canReply: true,
    });
    const customer = { id: 333, first_name: 'Carl' };
    const fromCustomer = {
      update_id: 21,
      business_message: {
        message_id: 1,
        date: 1,
        business_connection_id: 'bc1',
        chat: { id: 333, type: 'private', first_name: 'Carl' },
        from: customer,
        text: 'Is it open?',
      },
    };
    expect(parseUpdate(fromCustomer)).toMatchObject({
      kind: 'message',
      client: { platformId: '333', name: 'Carl', clientType: 1 },
      text: 'Is it open?',
      businessConnectionId: 'bc1',
    });
    const fromOwner = structuredClone(fromCustomer);
    fromOwner.business_message.from = { id: 111, first_name: 'Anna' };
    expect(parseUpdate(fromOwner)).toMatchObject({
      kind: 'ignore',
      reason: 'written by the business account owner',
    });
  });

  it('names a group client by its title', () => {
    const group = { id: -100123, type: 'supergroup', title: 'Pizza fans' };
    expect(
      parseUpdate({ update_id: 30, message: { message_id: 1, date: 1, chat: group, from, text: 'hi' } }),
    ).toMatchObject({
      client: { platformId: '-100123', name: 'Pizza fans', clientType: 1 },
      chatType: 'supergroup',
      senderId: 111,
    });
  });

  it('reads the bot blocked or unblocked (my_chat_member) as the chat’s membership', () => {
    const membership = (status: string, chatId = 42) => ({
      update_id: 7,
      my_chat_member: {
        chat: { id: chatId, type: chatId < 0 ? 'group' : 'private', first_name: 'Ann', title: 'G' },
        from,
        date: 1,
        old_chat_member: { user: from, status: 'member' },
        new_chat_member: { user: from, status },
      },
    });
    expect(parseUpdate(membership('kicked'))).toEqual({
      kind: 'membership',
      updateId: 7,
      chatId: 42,
      member: false,
    });
    expect(parseUpdate(membership('member'))).toEqual({
      kind: 'membership',
      updateId: 7,
      chatId: 42,
      member: true,
    });
    expect(parseUpdate(membership('left', -5))).toMatchObject({ chatId: -5, member: false });
    expect(parseUpdate(membership('administrator', -5))).toMatchObject({ member: true });
    expect(parseUpdate(membership('restricted', -5)).kind).toBe('ignore');
  });

  it('takes the longest texts and captions the messenger delivers (issue 30)', () => {
    const longest = [
      { photo: [{ file_id: 'p' }], caption: 'x'.repeat(4096) },
      { text: '😀'.repeat(4096) },
      { document: { file_id: `BQAC${'x'.repeat(400)}` } },
    ];
    for (const fields of longest)
      expect(parseUpdate(message(fields)).kind, Object.keys(fields).join()).toBe('message');
    expect(parseUpdate(message({ text: '😀'.repeat(4097) }))).toMatchObject({
      kind: 'invalid',
      reason: 'message.text: Too big: expected at most 4096 characters',
    });
  });

  it('returns invalid, never throws, for malformed, hostile and oversized updates', () => {
    const invalid = [
      null,
      'text',
      [],
      {},
      { update_id: -1, message: {} },
      { update_id: 1.5 },
      { update_id: 1, message: { message_id: 'x', date: 1, chat } },
      { update_id: 1, message: { message_id: 1, date: 1, chat: { id: 1, type: 'weird' } } },
      JSON.parse(
        '{"update_id": 1, "message": {"__proto__": {"polluted": true}, "message_id": 1, "date": 1}}',
      ),
      JSON.parse('{"update_id": 1, "constructor": {"prototype": {}}}'),
      message({ text: 'x'.repeat(4097) }),
      message({ photo: Array.from({ length: 500 }, () => ({ file_id: 'f' })) }),
      { update_id: 1, callback_query: { id: 'q', from, data: 'x'.repeat(65) } },
      { update_id: 1, message: JSON.parse(`${'{"a":'.repeat(50)}1${'}'.repeat(50)}`) },
    ];
    for (const raw of invalid) {
      const result = parseUpdate(raw);
      expect(result.kind, JSON.stringify(raw)?.slice(0, 80)).toBe('invalid');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseUpdate(message({ text: 'x'.repeat(4097) }))).toMatchObject({
      updateId: 10,
      reason: expect.stringContaining('message.text'),
    });
    expect(parseUpdate(JSON.parse('{"update_id": 1, "__proto__": {}}'))).toMatchObject({
      reason: 'the update has a forbidden key "__proto__" at update',
    });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '@/lib/channels/operation-result';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { LAST_MESSAGE_KEY } from '@/lib/social/instagram-window';
import type { PrismaClient } from '@/server/db/client-type';
import { getEngineDeps } from '@/server/engine/engine';
import { sweepOutbox } from '@/server/engine/outbox';
import { replyToClient } from '@/server/inbox/operator-reply';
import { waitFor } from '@/server/testing/wait-for';
import { saveAndPublish } from '@/server/versions/bot-versions';
import { type ChatappTestApp, useChatappTestApp } from '../chatapp/testing/chatapp-test-app';
import { sweepChannelUpdates } from '../inbound/pipeline';
import { socialChannel } from './adapter';
import type { connectSocialChannel } from './channel-service';
import {
  type FakeAccount,
  type FakeInstagram,
  type FakeUser,
  startFakeInstagram,
} from './testing/fake-instagram';
import { USERNAME_KEY } from './updates';

/**
 * Instagram Direct end to end: an account connected through the web app's API against the fake
 * Graph API, the webhook subscribed by the fake's handshake, messages delivered signed to the
 * real route over HTTP and run through the engine, the bot's answers arriving at the fake as
 * Instagram sends, the window and HUMAN_AGENT rules, read reports moving the status, and
 * check_social_subscription through the public API.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-social-'));
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let app: ChatappTestApp;
let db: PrismaClient;
let fake: FakeInstagram;
let owner: ChatappTestApp['owner'];
let projectId: number;
let account: FakeAccount;
let channelId: number;
let verifyToken: string;
let webhookUrl: string;

const connect = async (a: FakeAccount) =>
  resultOf<typeof connectSocialChannel>(
    await owner.channels.connect({
      kind: 'social',
      projectId,
      accountId: a.accountId,
      accessToken: a.token,
      appSecret: a.appSecret,
    }),
  )!;

beforeAll(async () => {
  fake = await startFakeInstagram();
  app = await useChatappTestApp(tmp, {
    // A send's first try waits out 3.5 s of trouble in the process (0.5, 1, 2), then is held.
    BLOCKBOT_SOCIAL_RETRY_SECONDS: '5',
    BLOCKBOT_SOCIAL_HOLD_HOURS: '24',
    BLOCKBOT_SOCIAL_API_ROOT: `${fake.url}/${fake.version}`,
  });
  ({ db, owner, projectId } = app);
  await saveAndPublish(db, projectId, {
    format: BOT_SCHEMA_FORMAT,
    blocks: [
      {
        id: 1,
        kind: 'start',
        text: 'Welcome! Pay now?',
        trigger: { alternatives: '' },
        buttons: [
          { type: 'reply', text: 'Yes' },
          { type: 'reply', text: 'No' },
        ],
      },
      { id: 2, kind: 'start', text: 'Paid, thank you', trigger: { alternatives: 'Yes' } },
      {
        id: 3,
        kind: 'start',
        text: 'Choose a size',
        trigger: { alternatives: 'sizes' },
        buttons: Array.from({ length: 14 }, (_, i) => ({ type: 'reply' as const, text: `Size ${i + 1}` })),
      },
      { id: 4, kind: 'start', text: 'Size 14 it is', trigger: { alternatives: 'Size 14' } },
      { id: 5, kind: 'start', text: 'Thanks for the mention', trigger: { alternatives: 'story_mention' } },
      { id: 6, kind: 'start', text: 'Started from the menu', trigger: { alternatives: 'GET_STARTED' } },
      {
        id: 7,
        kind: 'start',
        text: 'Fan: #{fan}; unknown: #{unknown}',
        trigger: { alternatives: 'am i a fan' },
        formula:
          "fan = check_social_subscription('big.fan')\nunknown = check_social_subscription('nobody.here') == None",
      },
    ],
    arrows: [],
  });
  account = fake.addAccount({ username: 'Pizza_Place', name: 'Pizza Place' });
  const connected = await connect(account);
  channelId = connected.id;
  verifyToken = connected.webhook.verifyToken;
  webhookUrl = connected.webhook.url;
  if (!(await fake.setWebhook(account.accountId, { url: webhookUrl, verifyToken })))
    throw new Error('the handshake failed');
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const textsTo = (u: FakeUser) =>
  fake.sent(account.accountId, u.igsid).map((s) => s.message.text ?? 'attachment');

const clientOf = (u: FakeUser) =>
  waitFor(
    () =>
      db.client.findFirst({
        where: { projectId, clientType: 10, platformId: u.igsid },
        include: { channelStates: true },
      }),
    'the client',
  );

const historyOf = (u: FakeUser, direction: 'in' | 'out' = 'out') =>
  db.message.findMany({
    where: { client: { projectId, platformId: u.igsid, clientType: 10 }, direction },
    orderBy: { id: 'asc' },
  });

describe('connecting an account', () => {
  it('checks the token, names the channel by the username, keeps the secrets sealed, subscribes the app', async () => {
    const channel = await db.channel.findUniqueOrThrow({ where: { id: channelId } });
    expect(channel).toMatchObject({
      kind: 'social',
      clientType: 10,
      groupId: 'pizza_place',
      name: 'Pizza Place',
    });
    const stored = JSON.stringify(channel.credentials);
    expect(stored).not.toContain(account.token);
    expect(stored).not.toContain(account.appSecret);
    expect(channel.inboundSecret).not.toContain(verifyToken);
    expect(fake.subscribedFields.get(account.accountId)).toContain('messages');
    const [view] = (await owner.channels.list({ projectId })).filter((c) => c.id === channelId);
    expect(view.social).toEqual({ accountId: account.accountId, webhookUrl });
    expect(JSON.stringify(view)).not.toContain(account.token);
  });

  it('refuses a wrong token naming the field, and an account connected already', async () => {
    const other = fake.addAccount();
    await expect(connect({ ...other, token: 'EAAwrongwrongwrongwrongwrong' })).rejects.toMatchObject({
      message: expect.stringContaining('does not accept this access token'),
    });
    await expect(connect(account)).rejects.toMatchObject({
      message: '@pizza_place is already connected to this project.',
    });
  });

  it('answers the subscription handshake for its verify token only', async () => {
    expect(await fake.setWebhook(account.accountId, { url: webhookUrl, verifyToken: 'not-the-token' })).toBe(
      false,
    );
    expect(await fake.setWebhook(account.accountId, { url: webhookUrl, verifyToken })).toBe(true);
  });
});

describe('a person writing to the account', () => {
  it('gets the answer with quick replies; the press follows its arrow; a read report moves the status', async () => {
    const ann = fake.addUser({ username: 'Ann.Smith', name: 'Ann Smith' });
    await fake.sendInbound(account.accountId, ann.igsid, { text: 'hello' });
    await waitFor(async () => textsTo(ann).length === 1, 'the welcome');
    const [welcome] = fake.sent(account.accountId, ann.igsid);
    expect(welcome).toMatchObject({
      messagingType: 'RESPONSE',
      message: {
        text: 'Welcome! Pay now?\n\n1. Yes\n2. No',
        quick_replies: [
          { content_type: 'text', title: 'Yes', payload: 'Yes' },
          { content_type: 'text', title: 'No', payload: 'No' },
        ],
      },
    });
    expect(welcome.tag).toBeUndefined();
    // Seen and "typing…" as the bot worked on it.
    await waitFor(
      async () => fake.senderActions.filter((a) => a.recipient === ann.igsid).length === 2,
      'the sender actions',
    );
    expect(fake.senderActions.filter((a) => a.recipient === ann.igsid).map((a) => a.action)).toEqual([
      'mark_seen',
      'typing_on',
    ]);
    const client = await clientOf(ann);
    expect(client).toMatchObject({ groupId: 'pizza_place', name: 'Ann Smith' });
    expect(client.channelStates.map((s) => [s.key, s.value])).toContainEqual([USERNAME_KEY, 'ann.smith']);
    const [out] = await waitFor(async () => {
      const rows = await historyOf(ann);
      return rows[0]?.status === 'sent' ? rows : null;
    }, 'the reply recorded as sent');
    expect(out.externalId).toBe(welcome.mid);

    await fake.markRead(account.accountId, ann.igsid, welcome.mid);
    await waitFor(async () => (await historyOf(ann))[0]?.status === 'read', 'the status moved to read');

    await fake.sendInbound(account.accountId, ann.igsid, { text: 'Yes', quickReplyPayload: 'Yes' });
    await waitFor(async () => textsTo(ann).at(-1) === 'Paid, thank you', 'the answer to the press');
    await fake.sendInbound(account.accountId, ann.igsid, {
      postback: { title: 'Get started', payload: 'GET_STARTED' },
    });
    await waitFor(async () => textsTo(ann).at(-1) === 'Started from the menu', 'the answer to the postback');
  });

  it('shows the options on desktop Instagram too, which shows no quick replies; a typed number answers', async () => {
    const dan = fake.addUser();
    await fake.sendInbound(account.accountId, dan.igsid, { text: 'hello' });
    await waitFor(async () => textsTo(dan).length === 1, 'the welcome');
    const welcome = 'Welcome! Pay now?\n\n1. Yes\n2. No';
    expect(fake.seenOn(account.accountId, dan.igsid, 'phone')).toEqual([
      { text: welcome, buttons: ['Yes', 'No'] },
    ]);
    expect(fake.seenOn(account.accountId, dan.igsid, 'desktop')).toEqual([{ text: welcome, buttons: [] }]);
    await fake.sendInbound(account.accountId, dan.igsid, { text: '1' });
    await waitFor(async () => textsTo(dan).at(-1) === 'Paid, thank you', 'the answer to 1');
  });

  it('shows 14 options as numbered text, and takes a typed number as its option', async () => {
    const bob = fake.addUser();
    await fake.sendInbound(account.accountId, bob.igsid, { text: 'sizes' });
    await waitFor(async () => textsTo(bob).length === 1, 'the sizes');
    expect(textsTo(bob)[0]).toContain('\n14. Size 14');
    expect(fake.sent(account.accountId, bob.igsid)[0].message.quick_replies).toBeUndefined();
    await fake.sendInbound(account.accountId, bob.igsid, { text: '14' });
    await waitFor(async () => textsTo(bob).at(-1) === 'Size 14 it is', 'the answer to 14');
    const [, typed] = await historyOf(bob, 'in');
    expect(typed.text).toBe('Size 14');
  });

  it('stores a story mention and a story reply with the story’s address, and a photo as the client’s file', async () => {
    const cat = fake.addUser();
    const story = fake.addFile(new Uint8Array([1, 2, 3]), 'image/jpeg');
    await fake.sendInbound(account.accountId, cat.igsid, { storyMention: story });
    await waitFor(async () => textsTo(cat).at(-1) === 'Thanks for the mention', 'the answer to the mention');
    await fake.sendInbound(account.accountId, cat.igsid, {
      text: 'love it',
      storyReply: { id: '1799', url: `${story}?reply` },
    });
    const photo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
    await fake.sendInbound(account.accountId, cat.igsid, {
      attachments: [{ type: 'image', url: fake.addFile(photo, 'image/png') }],
    });
    const incoming = await waitFor(async () => {
      const rows = await historyOf(cat, 'in');
      return rows.length === 3 ? rows : null;
    }, 'three messages stored');
    expect(incoming[0]).toMatchObject({ text: 'story_mention', attachments: [{ type: 'link', url: story }] });
    expect(incoming[1]).toMatchObject({
      text: 'love it',
      attachments: [{ type: 'link', url: `${story}?reply` }],
    });
    const file = await db.storedFile.findFirstOrThrow({ where: { client: { platformId: cat.igsid } } });
    expect(file).toMatchObject({ mimeType: 'image/png', size: photo.length });
    expect(incoming[2].attachments).toEqual([
      { type: 'image', url: expect.stringContaining(`/api/files/${file.id}/`) },
    ]);
  });

  it('refuses an unsigned or wrongly signed delivery before storing anything, and stores a signed one once', async () => {
    const dee = fake.addUser();
    const payload = (mid: string) => ({
      object: 'instagram',
      entry: [
        {
          id: account.accountId,
          time: Date.now(),
          messaging: [
            {
              sender: { id: dee.igsid },
              recipient: { id: account.accountId },
              timestamp: Date.now(),
              message: { mid, text: 'hi' },
            },
          ],
        },
      ],
    });
    const before = await db.channelUpdate.count();
    expect((await fake.deliver(account.accountId, payload('m.unsigned'), { signature: null })).status).toBe(
      401,
    );
    const forged = `sha256=${'0'.repeat(64)}`;
    expect((await fake.deliver(account.accountId, payload('m.forged'), { signature: forged })).status).toBe(
      401,
    );
    const otherSecret = `sha256=${(await import('node:crypto'))
      .createHmac('sha256', 'another app secret')
      .update(JSON.stringify(payload('m.other')))
      .digest('hex')}`;
    expect(
      (await fake.deliver(account.accountId, payload('m.other'), { signature: otherSecret })).status,
    ).toBe(401);
    expect(await db.channelUpdate.count()).toBe(before);
    expect(await db.client.count({ where: { platformId: dee.igsid } })).toBe(0);

    expect((await fake.deliver(account.accountId, payload('m.twice'))).status).toBe(200);
    expect((await fake.deliver(account.accountId, payload('m.twice'))).status).toBe(200);
    await waitFor(
      async () =>
        (await db.channelUpdate.findFirst({
          where: { externalId: 'm.twice', processedAt: { not: null } },
        })) !== null,
      'the update processed',
    );
    expect(await db.channelUpdate.count({ where: { channelId, externalId: 'm.twice' } })).toBe(1);
  });
});

describe('the durable pipeline', () => {
  it('answers an update whose process died after storing it, by the sweeper, once', async () => {
    const kim = fake.addUser();
    // The person wrote (the fake knows them), and the process that stored it died before running it.
    await fake.sendInbound(account.accountId, kim.igsid, {
      postback: { title: 'x', payload: 'x' },
      at: Date.now() - 1000,
    });
    await waitFor(async () => textsTo(kim).length === 1, 'the first answer');
    const at = Date.now();
    await db.channelUpdate.create({
      data: {
        channelId,
        externalId: 'm.swept',
        updateId: BigInt(at),
        chat: kim.igsid,
        payload: {
          account: account.accountId,
          event: {
            sender: { id: kim.igsid },
            recipient: { id: account.accountId },
            timestamp: at,
            message: { mid: 'm.swept', text: 'Yes', quick_reply: { payload: 'Yes' } },
          },
        },
        claimToken: 'a-process-that-died',
        claimedUntil: new Date(Date.now() - 1000),
        attempts: 1,
      },
    });
    await sweepChannelUpdates(await getEngineDeps());
    await waitFor(async () => textsTo(kim).at(-1) === 'Paid, thank you', 'the swept answer');
    await sweepChannelUpdates(await getEngineDeps());
    expect(textsTo(kim)).toHaveLength(2);
  });
});

describe('the messaging window', () => {
  it('sends nothing from the bot to a person who wrote more than 24 hours ago: the message fails naming the rule', async () => {
    const eve = fake.addUser();
    await fake.sendInbound(account.accountId, eve.igsid, {
      text: 'an old hello',
      at: Date.now() - 25 * HOUR,
    });
    const [refused] = await waitFor(async () => {
      const rows = await historyOf(eve);
      return rows[0]?.status === 'failed' ? rows : null;
    }, 'the welcome refused');
    expect(refused.error).toContain('outside the 24-hour messaging window');
    expect(refused.error).toContain('HUMAN_AGENT');
    // Not even tried: the API would have refused it (10, 2534022).
    const sends = fake.calls.filter(
      (c) =>
        (c.body as { recipient?: { id: string }; message?: unknown } | null)?.recipient?.id === eve.igsid,
    );
    expect(sends.filter((c) => (c.body as { message?: unknown }).message)).toEqual([]);
  });

  it('sends an operator’s reply with the HUMAN_AGENT tag within 7 days, and refuses it after', async () => {
    const deps = await getEngineDeps();
    const member = await db.projectMember.create({ data: { projectId, email: 'op@example.com' } });
    const fay = fake.addUser();
    await fake.sendInbound(account.accountId, fay.igsid, { text: 'hello?', at: Date.now() - 3 * DAY });
    const client = await clientOf(fay);
    await waitFor(async () => (await historyOf(fay))[0]?.status === 'failed', 'the bot’s answer refused');
    const reply = await replyToClient(deps, projectId, member.id, client.id, 'Sorry for the wait!');
    expect(reply).toMatchObject({ delivered: true, error: null });
    expect(fake.sent(account.accountId, fay.igsid)).toEqual([
      expect.objectContaining({
        messagingType: 'MESSAGE_TAG',
        tag: 'HUMAN_AGENT',
        message: { text: 'Sorry for the wait!' },
      }),
    ]);

    await db.clientChannelState.update({
      where: { clientId_key: { clientId: client.id, key: LAST_MESSAGE_KEY } },
      data: { value: new Date(Date.now() - 8 * DAY).toISOString() },
    });
    const late = await replyToClient(deps, projectId, member.id, client.id, 'Still there?');
    expect(late.delivered).toBe(false);
    expect(late.error).toContain('only within 7 days');
    expect(fake.sent(account.accountId, fay.igsid)).toHaveLength(1);
  });
});

describe('a comment on the account’s post', () => {
  it('gets the bot’s answer as its one private reply, text only; then nothing until the person writes', async () => {
    const ivy = fake.addUser({ username: 'Ivy.Reads' });
    const { commentId } = await fake.sendComment(account.accountId, ivy.igsid, 'how much is it?');
    await waitFor(async () => textsTo(ivy).length === 1, 'the private reply');
    const [reply] = fake.sent(account.accountId, ivy.igsid);
    expect(reply).toMatchObject({
      commentId,
      message: { text: 'Welcome! Pay now?\n\n1. Yes\n2. No' },
    });
    const client = await clientOf(ivy);
    expect(client.name).toBe('ivy.reads');
    const [incoming] = await historyOf(ivy, 'in');
    expect(incoming.text).toBe('how much is it?');

    // One private reply per comment: the next message has no window to go in. (Recorded as sent
    // once the adapter has let the comment go, which it does after Instagram's answer.)
    await waitFor(async () => (await historyOf(ivy))[0]?.status === 'sent', 'the private reply recorded');
    const again = await socialChannel.send(
      { id: client.id, projectId, platformId: ivy.igsid, groupId: 'pizza_place', clientType: 10 },
      { text: 'Anything else?', attachments: [], buttons: null, blockId: null },
      { db },
    );
    expect(again).toMatchObject({ delivered: false, error: expect.stringContaining('never wrote') });
    expect(fake.sent(account.accountId, ivy.igsid)).toHaveLength(1);

    // Their answer in Direct opens the window: a typed number picks the option.
    await fake.sendInbound(account.accountId, ivy.igsid, { text: '1' });
    await waitFor(async () => textsTo(ivy).at(-1) === 'Paid, thank you', 'the answer to 1');
  });

  it('is not answered privately after 7 days', async () => {
    const jon = fake.addUser();
    await fake.sendComment(account.accountId, jon.igsid, 'old comment', { at: Date.now() - 8 * DAY });
    const [refused] = await waitFor(async () => {
      const rows = await historyOf(jon);
      return rows[0]?.status === 'failed' ? rows : null;
    }, 'the answer refused');
    expect(refused.error).toContain('outside the messaging window');
    expect(fake.sent(account.accountId, jon.igsid)).toHaveLength(0);
  });
});

/** A person who wrote to the account (their answer came), as a target of the adapter's send. */
async function wroteToUs(u: FakeUser) {
  await fake.sendInbound(account.accountId, u.igsid, { text: 'Yes' });
  await waitFor(async () => textsTo(u).length === 1, 'the answer');
  const client = await clientOf(u);
  return { id: client.id, projectId, platformId: u.igsid, groupId: 'pizza_place', clientType: 10 };
}

describe('a long text', () => {
  it('reaches a person whole when it is Russian: split by the API’s 1,000 bytes, not characters', async () => {
    const lev = fake.addUser();
    const target = await wroteToUs(lev);
    // 1,407 characters: cut at 1,000 characters, the first part alone is 1,774 bytes, refused.
    const text = 'Спасибо за ваш заказ! '.repeat(64).trim();
    const sent = await socialChannel.send(
      target,
      { text, attachments: [], buttons: null, blockId: null },
      { db },
    );
    expect(sent).toMatchObject({ delivered: true });
    const parts = textsTo(lev).slice(1);
    expect(parts.length).toBe(3);
    expect(parts.join(' ')).toBe(text);
  });
});

describe('Meta in trouble for hours', () => {
  const outboxOf = async (messageId: bigint) =>
    db.outbox.findFirstOrThrow({ where: { messageId, kind: 'send' } });
  /** The held sends' time comes (as if their pause had passed), and the sweeper takes them. */
  async function timePasses(...messageIds: bigint[]) {
    await db.outbox.updateMany({
      where: { messageId: { in: messageIds }, kind: 'send', state: 'held' },
      data: { claimedUntil: new Date(Date.now() - 1000) },
    });
    await sweepOutbox(await getEngineDeps());
  }
  const heldAnswer = (u: FakeUser, count: number) =>
    waitFor(async () => {
      const rows = await historyOf(u);
      return rows.length === count && rows.every((r) => r.status === 'queued' && r.error) ? rows : null;
    }, `${count} answers held`);

  it('keeps the answers queued through an outage, tries again with growing pauses, and sends them in order when Meta is back', async () => {
    const oli = fake.addUser();
    fake.trouble = { code: 2, times: Number.POSITIVE_INFINITY };
    try {
      await fake.sendInbound(account.accountId, oli.igsid, { text: 'Yes' });
      const [first] = await heldAnswer(oli, 1);
      expect(first.error).toContain('Instagram could not take it yet');
      expect(first.error).toContain('An unexpected error has occurred');
      const row = await outboxOf(first.id);
      expect(row.state).toBe('held');
      // The next try 15 s after this one, not in a loop.
      expect(row.claimedUntil?.getTime()).toBeGreaterThan(Date.now() + 5_000);
      // Their next message's answer waits behind it, untried.
      const calls = fake.calls.length;
      await fake.sendInbound(account.accountId, oli.igsid, { text: 'sizes' });
      const [, second] = await heldAnswer(oli, 2);
      const sends = fake.calls.slice(calls).filter((c) => (c.body as { message?: unknown }).message);
      expect(sends).toEqual([]);

      // Still down at the next try: held again, a longer pause.
      await timePasses(first.id);
      const again = await outboxOf(first.id);
      expect(again).toMatchObject({ state: 'held', attempts: 1 });
      expect(again.claimedUntil?.getTime()).toBeGreaterThan(Date.now() + 20_000);
      expect((await historyOf(oli)).map((m) => m.status)).toEqual(['queued', 'queued']);

      fake.trouble = null;
      await timePasses(first.id, second.id);
      await waitFor(
        async () => (await historyOf(oli)).every((m) => m.status === 'sent'),
        'both answers sent',
      );
      expect(textsTo(oli)).toEqual(['Paid, thank you', expect.stringContaining('14. Size 14')]);
      expect((await historyOf(oli)).map((m) => m.error)).toEqual([null, null]);
    } finally {
      fake.trouble = null;
    }
  });

  it('fails a send Meta could not take within BLOCKBOT_SOCIAL_HOLD_HOURS of its queueing, naming the hours; one held past the window fails with its rule, unsent', async () => {
    const pat = fake.addUser();
    fake.trouble = { code: 17, times: Number.POSITIVE_INFINITY };
    try {
      await fake.sendInbound(account.accountId, pat.igsid, { text: 'Yes' });
      const [held] = await heldAnswer(pat, 1);
      await fake.sendInbound(account.accountId, pat.igsid, { text: 'sizes' });
      const [, behind] = await heldAnswer(pat, 2);
      // Queued a day and an hour ago, still refused: past the horizon.
      await db.outbox.updateMany({
        where: { messageId: held.id, kind: 'send' },
        data: { createdAt: new Date(Date.now() - 25 * HOUR) },
      });
      await timePasses(held.id);
      const [failed] = await waitFor(async () => {
        const rows = await historyOf(pat);
        return rows[0]?.status === 'failed' ? rows : null;
      }, 'the answer failed');
      expect(failed.error).toMatch(
        /^Instagram could not take it within 24 hours: 17 \(#17\) User request limit reached/,
      );
      expect(await outboxOf(held.id)).toMatchObject({ state: 'done' });

      // The one behind it is tried when its time comes, after the person's 24 hours: the rule.
      const client = await clientOf(pat);
      await db.clientChannelState.update({
        where: { clientId_key: { clientId: client.id, key: LAST_MESSAGE_KEY } },
        data: { value: new Date(Date.now() - 25 * HOUR).toISOString() },
      });
      const calls = fake.calls.length;
      await timePasses(behind.id);
      await waitFor(async () => (await historyOf(pat))[1]?.status === 'failed', 'the second failed');
      expect((await historyOf(pat))[1].error).toContain('outside the 24-hour messaging window');
      expect(fake.calls.length).toBe(calls);
      expect(textsTo(pat)).toEqual([]);
    } finally {
      fake.trouble = null;
    }
  });
});

describe('failures', () => {
  it('waits out each of Meta’s throttles (4, 17, 32, 613): tried again, delivered', async () => {
    const max = fake.addUser();
    const target = await wroteToUs(max);
    for (const code of [4, 17, 32, 613] as const) {
      fake.trouble = { code, times: 1 };
      try {
        const sent = await socialChannel.send(
          target,
          { text: `after ${code}`, attachments: [], buttons: null, blockId: null },
          { db },
        );
        expect(sent).toMatchObject({ delivered: true });
      } finally {
        fake.trouble = null;
      }
    }
    expect(textsTo(max).slice(1)).toEqual(['after 4', 'after 17', 'after 32', 'after 613']);
  });

  it('waits out the API’s rate limit (613) and records a refused token on the channel', async () => {
    const gus = fake.addUser();
    await fake.sendInbound(account.accountId, gus.igsid, { text: 'Yes' });
    await waitFor(async () => textsTo(gus).length === 1, 'the answer');
    const client = await clientOf(gus);
    const target = {
      id: client.id,
      projectId,
      platformId: gus.igsid,
      groupId: 'pizza_place',
      clientType: 10,
    };
    const callsBefore = fake.calls.length;
    fake.perSecond = 1;
    try {
      const both = await Promise.all(
        ['first', 'second'].map((text) =>
          socialChannel.send(target, { text, attachments: [], buttons: null, blockId: null }, { db }),
        ),
      );
      expect(both.map((r) => r.delivered)).toEqual([true, true]);
    } finally {
      fake.perSecond = null;
    }
    expect(fake.calls.slice(callsBefore).some((c) => JSON.stringify(c.answer).includes('"code":613'))).toBe(
      true,
    );

    const realToken = account.token;
    account.token = 'EAArevokedrevokedrevoked';
    try {
      const refused = await socialChannel.send(
        target,
        { text: 'x', attachments: [], buttons: null, blockId: null },
        { db },
      );
      expect(refused).toMatchObject({ delivered: false, error: expect.stringContaining('190') });
    } finally {
      account.token = realToken;
    }
    expect((await db.channel.findUniqueOrThrow({ where: { id: channelId } })).lastError).toContain(
      'refused the access token',
    );
  });
});

describe('check_social_subscription', () => {
  it('answers from the User Profile API for a person who wrote; never-wrote and an unknown login are their own answers', async () => {
    const fan = fake.addUser({ username: 'Big.Fan', followsBusiness: true });
    const passerby = fake.addUser({ username: 'just.looking', followsBusiness: false });
    for (const u of [fan, passerby]) {
      await fake.sendInbound(account.accountId, u.igsid, { text: 'hi' });
      await waitFor(
        async () => (await clientOf(u)).channelStates.some((s) => s.key === USERNAME_KEY),
        'the username kept',
      );
    }
    const follows = await app.callApi('check_social_subscription', {
      user_name: '@big.fan',
      login: 'Pizza_Place',
    });
    expect(follows).toMatchObject({ status: 200, body: { subscribed: true, user_name: 'big.fan' } });
    const not = await app.callApi('check_social_subscription', {
      user_name: 'just.looking',
      login: 'pizza_place',
    });
    expect(not).toMatchObject({ status: 200, body: { subscribed: false } });
    // The answer is Instagram's now, not what was true when they wrote.
    fake.user(passerby.igsid).followsBusiness = true;
    expect(
      (await app.callApi('check_social_subscription', { user_name: 'just.looking', login: 'pizza_place' }))
        .body,
    ).toMatchObject({ subscribed: true });

    const never = await app.callApi('check_social_subscription', {
      user_name: 'never.wrote',
      login: 'pizza_place',
    });
    expect(never).toMatchObject({
      status: 404,
      body: { error: 'user_never_wrote', message: expect.stringContaining('never wrote to @pizza_place') },
    });
    const unknown = await app.callApi('check_social_subscription', {
      user_name: 'big.fan',
      login: 'other_shop',
    });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'account_not_connected' } });

    // The in-flow form: True or False, None for a person who never wrote; login defaults to the client's account.
    await fake.sendInbound(account.accountId, fan.igsid, { text: 'am i a fan' });
    await waitFor(async () => textsTo(fan).at(-1)?.startsWith('Fan:'), 'the in-flow answer');
    expect(textsTo(fan).at(-1)).toBe('Fan: True; unknown: True');
  });
});

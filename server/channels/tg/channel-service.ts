import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { connectTgInput } from '@/lib/channels/connect-inputs';
import { TG_CLIENT_TYPE } from '@/lib/tg/inbound';
import { baseUrl } from '@/server/config/env';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db } from '@/server/db/client-type';
import { DomainError, invalid, parseInput } from '@/server/errors';
import { findChannelByGroup } from '../channel-list';
import { channelView } from '../channel-view';
import { type PlatformRefusals, refusal } from '../refusal';
import { webhookAddress } from '../webhook-address';
import { type BotApiClient, botApiClient, tgApiRoot } from './bot-api';

/**
 * Connecting tg bots to a project: the token is checked with getMe, the bot's username becomes
 * the channel's group_id, and the token is stored sealed (secret-box) and never leaves the
 * server again. Updates arrive through a webhook with a random secret, or by long polling.
 */

/** What the bot asks the messenger for; the rest (reactions, polls, …) is not sent at all. */
export const TG_ALLOWED_UPDATES = [
  'message',
  'edited_message',
  'callback_query',
  'business_connection',
  'business_message',
  'edited_business_message',
  // A user blocking or unblocking the bot: their subscription follows.
  'my_chat_member',
] as const;

interface TokenOwner {
  projectId: number;
  groupId: string;
  credentials: unknown;
}

/** The sealed token is bound to its project and bot, so a copied value opens nowhere else. */
const tokenContext = (projectId: number, groupId: string) => `tg-channel:${projectId}:${groupId}`;

function sealedToken(channel: TokenOwner): string {
  const sealed = (channel.credentials as { token?: unknown } | null)?.token;
  if (typeof sealed !== 'string') throw new Error(`the tg bot ${channel.groupId} has no stored token`);
  return sealed;
}

export function channelToken(channel: TokenOwner): string {
  return decryptSecret(sealedToken(channel), tokenContext(channel.projectId, channel.groupId));
}

/** Clients kept per bot (the least recently used beyond this many is dropped). */
const MAX_BOTS = 256;
const bots = new Map<string, BotApiClient>();

/**
 * The bot's Bot API client, made once (the token opened, grammY's Api built) and reused by
 * every send and call: keyed by the sealed token and the API root, so a reconnected bot or
 * another root gets a new one.
 */
export function channelBot(channel: TokenOwner): BotApiClient {
  const key = `${tgApiRoot()} ${tokenContext(channel.projectId, channel.groupId)} ${sealedToken(channel)}`;
  let bot = bots.get(key);
  if (bot) bots.delete(key);
  else bot = botApiClient(channelToken(channel));
  bots.set(key, bot);
  if (bots.size > MAX_BOTS) bots.delete(bots.keys().next().value as string);
  return bot;
}

export const webhookUrl = (channelId: number) =>
  `${baseUrl().replace(/\/+$/, '')}/api/channels/tg/${channelId}`;

/** The ports the messenger delivers webhooks to. */
const WEBHOOK_PORTS = new Set(['443', '80', '88', '8443']);

/**
 * Why the messenger cannot call this server's webhooks, or null when it can: it calls only public
 * https addresses on a few ports, and the default BLOCKBOT_BASE_URL is http://localhost. Shown on
 * the Channels tab where a bot is connected, which then suggests long polling.
 */
export function webhookAddressProblem(base = baseUrl()): string | null {
  const address = webhookAddress(base);
  if ('invalid' in address) return address.invalid;
  if (address.publicHttps && WEBHOOK_PORTS.has(address.port)) return null;
  return `This server's address, BLOCKBOT_BASE_URL, is ${address.origin}: the tg messenger calls webhooks only at public https addresses (ports 443, 80, 88 or 8443), so a bot connected by webhook would receive nothing. Choose long polling, or set BLOCKBOT_BASE_URL to this server's public https address.`;
}

/** A refused Bot API call as a message for the person connecting the bot. */
const TG_REFUSALS: PlatformRefusals = {
  platform: 'The tg messenger',
  causes: { invalid_token: 'credential', unavailable: 'unreachable' },
  credential: (description) =>
    `The tg messenger does not accept this token (${description}); copy it again from BotFather.`,
};

export async function connectTgChannel(
  db: Db,
  projectId: number,
  input: z.input<typeof connectTgInput>,
  startPolling: (channelId: number) => Promise<void>,
) {
  const { token, mode } = parseInput(connectTgInput, input);
  const bot = botApiClient(token);
  const me = await bot.call((api) => api.getMe());
  if (!me.ok) throw invalid(refusal(me, 'check the token', TG_REFUSALS), 'token');
  const username = me.result.username;
  if (!/bot$/i.test(username))
    throw invalid(`@${username} is not a bot username (it must end in "bot"); use a bot's token`, 'token');
  const taken = await db.channel.findFirst({ where: { clientType: TG_CLIENT_TYPE, groupId: username } });
  if (taken)
    throw new DomainError(
      'conflict',
      taken.projectId === projectId
        ? `@${username} is already connected to this project.`
        : `@${username} is connected to another project; disconnect it there first (a bot delivers its updates to one place).`,
      'token',
    );

  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'tg',
      clientType: TG_CLIENT_TYPE,
      groupId: username,
      name: me.result.first_name,
      credentials: { token: encryptSecret(token, tokenContext(projectId, username)) },
      inboundSecret: randomBytes(32).toString('base64url'),
      receiveMode: mode,
    },
  });
  // A webhook is set, or removed so getUpdates is allowed; either failing undoes the connection.
  const set =
    mode === 'webhook'
      ? await bot.call((api) =>
          api.setWebhook(webhookUrl(channel.id), {
            secret_token: channel.inboundSecret,
            allowed_updates: [...TG_ALLOWED_UPDATES],
          }),
        )
      : await bot.call((api) => api.deleteWebhook());
  if (!set.ok) {
    await db.channel.delete({ where: { id: channel.id } });
    const hint =
      mode === 'webhook'
        ? ` The webhook address is ${webhookUrl(channel.id)}: set BLOCKBOT_BASE_URL to this server's public https address, or choose long polling.`
        : '';
    throw invalid(
      refusal(set, mode === 'webhook' ? 'set the webhook' : 'remove the webhook', TG_REFUSALS) + hint,
      'mode',
    );
  }
  if (mode === 'polling') await startPolling(channel.id);
  return channelView(channel);
}

/**
 * Removes the bot's webhook as its channel is disconnected (best effort: a revoked token
 * cannot); what went wrong, for the screen.
 */
export async function removeTgWebhook(channel: TokenOwner): Promise<string | null> {
  const removed = await channelBot(channel).call((api) => api.deleteWebhook());
  return removed.ok ? null : refusal(removed, 'remove the webhook', TG_REFUSALS);
}

/**
 * The project's connected tg bot with this username (the client's group_id), or null. Usernames
 * are case-insensitive in the messenger: `Shop_Bot` finds `shop_bot`, and the channel's own
 * spelling is the one its clients are stored under.
 */
export function findTgChannel(db: Db, projectId: number, groupId: string) {
  return findChannelByGroup(db, projectId, TG_CLIENT_TYPE, groupId);
}

/** The project's connected tg bot with this username (see findTgChannel). */
export async function tgChannelFor(db: Db, projectId: number, groupId: string) {
  const channel = await findTgChannel(db, projectId, groupId);
  if (!channel) throw new Error(`the tg bot ${groupId} is not connected to this project`);
  return channel;
}

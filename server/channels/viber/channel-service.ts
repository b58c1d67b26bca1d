import { randomBytes } from 'node:crypto';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { messengerLabel } from '@/lib/client-display';
import { connectViberInput } from '@/lib/viber/connect-input';
import { baseUrl } from '@/server/config/env';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db } from '@/server/db/client-type';
import { DomainError, invalid, parseInput } from '@/server/errors';
import type { ChannelRow } from '../channel-module';
import { channelView } from '../channel-view';
import { OpenedCredentials } from '../opened-credentials';
import { type PlatformRefusals, refusal } from '../refusal';
import { webhookAddress } from '../webhook-address';
import { VIBER_REFUSAL_CAUSES, viberApi } from './viber-api';

/**
 * Connecting a Viber bot by its authentication token (docs/channels/viber.md): the token is
 * checked by reading the bot's account (`get_account_info`), whose URI becomes the channel's
 * group_id and whose name and icon are the sender of its messages; the token is stored sealed
 * (secret-box), never shown again; the webhook is set to this server's address
 * (`set_webhook`, which Viber checks by calling it at once), so the channel exists before it is
 * set and is removed again when Viber refuses. Disconnecting removes the webhook.
 */

export const VIBER_CLIENT_TYPE = CLIENT_TYPES.viber;

/** The events the bot asks Viber for (`message` always comes). */
export const EVENT_TYPES = [
  'delivered',
  'seen',
  'failed',
  'subscribed',
  'unsubscribed',
  'conversation_started',
];

interface SealedViber {
  accountId: string;
  token: string;
  /** The sender of its messages, as the account shows it. */
  name: string;
  avatar?: string;
}

/** The bot's credentials, opened. */
export interface ViberCredentials {
  accountId: string;
  token: string;
  name: string;
  avatar?: string;
}

type Owner = { projectId: number; groupId: string; credentials: unknown };

/** Sealed values are bound to their project and account: a copied value opens nowhere else. */
const sealedAs = (projectId: number, accountId: string) => `viber-channel:${projectId}:${accountId}:token`;

const opened = new OpenedCredentials<ViberCredentials>();

export function viberCredentials(channel: Owner): ViberCredentials {
  const sealed = channel.credentials as Partial<SealedViber> | null;
  if (!sealed?.token || !sealed.accountId)
    throw new Error(`the Viber bot ${channel.groupId} has no stored credentials`);
  return opened.get(`${channel.projectId} ${sealed.token}`, () => ({
    accountId: sealed.accountId as string,
    token: decryptSecret(sealed.token as string, sealedAs(channel.projectId, sealed.accountId as string)),
    name: sealed.name ?? channel.groupId,
    ...(sealed.avatar ? { avatar: sealed.avatar } : {}),
  }));
}

export const viberWebhookUrl = (channelId: number) =>
  `${baseUrl().replace(/\/+$/, '')}/api/channels/viber/${channelId}`;

/** Why Viber cannot call this server's webhooks, or null: it calls only public https addresses. */
export function viberWebhookAddressProblem(base = baseUrl()): string | null {
  const address = webhookAddress(base);
  if ('invalid' in address) return address.invalid;
  if (address.publicHttps) return null;
  return `This server's address, BLOCKBOT_BASE_URL, is ${address.origin}: Viber calls webhooks only at public https addresses, so a bot connected here would receive nothing. Set BLOCKBOT_BASE_URL to this server's public https address.`;
}

/** What the Channels tab shows of a bot: never its token. */
export function viberView(channel: Pick<ChannelRow, 'id' | 'credentials'>) {
  const sealed = channel.credentials as Partial<SealedViber> | null;
  return { accountId: sealed?.accountId ?? '', webhookUrl: viberWebhookUrl(channel.id) };
}

const VIBER_REFUSALS: PlatformRefusals = {
  platform: messengerLabel(VIBER_CLIENT_TYPE),
  causes: VIBER_REFUSAL_CAUSES,
  credential: (description) =>
    `Viber does not accept this token (${description}); copy the bot’s app key again from Viber → More → Settings → Bots → Edit info.`,
};

interface AccountInfo {
  id?: string;
  name?: string;
  uri?: string;
  icon?: string;
}

export async function connectViberChannel(db: Db, projectId: number, input: unknown) {
  const { token } = parseInput(connectViberInput, input);
  const api = viberApi(token);
  const account = await api.call<AccountInfo>('get_account_info', {});
  if (!account.ok) throw invalid(refusal(account, 'read the bot’s account', VIBER_REFUSALS), 'token');
  const accountId = account.result.id ?? '';
  const groupId = (account.result.uri || accountId).toLowerCase();
  if (!groupId) throw invalid('Viber gave no URI nor id for this bot; check the token.', 'token');
  const taken = await db.channel.findFirst({ where: { clientType: VIBER_CLIENT_TYPE, groupId } });
  if (taken)
    throw new DomainError(
      'conflict',
      taken.projectId === projectId
        ? `The Viber bot ${groupId} is already connected to this project.`
        : `The Viber bot ${groupId} is connected to another project; disconnect it there first (a bot has one webhook).`,
      'token',
    );
  const name = account.result.name?.trim() || groupId;
  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'viber',
      clientType: VIBER_CLIENT_TYPE,
      groupId,
      name,
      credentials: {
        accountId: accountId || groupId,
        token: encryptSecret(token, sealedAs(projectId, accountId || groupId)),
        name,
        ...(account.result.icon ? { avatar: account.result.icon } : {}),
      } satisfies SealedViber,
      inboundSecret: randomBytes(24).toString('base64url'),
      receiveMode: 'webhook',
    },
  });
  // Viber calls the address at once (event "webhook") and sets it only if it answers 200.
  const set = await api.call('set_webhook', {
    url: viberWebhookUrl(channel.id),
    event_types: EVENT_TYPES,
    send_name: true,
    send_photo: true,
  });
  if (!set.ok) {
    await db.channel.delete({ where: { id: channel.id } });
    throw invalid(
      `${refusal(set, 'set the webhook', VIBER_REFUSALS)}. Viber must reach ${viberWebhookUrl(channel.id)} over https with a trusted certificate: check BLOCKBOT_BASE_URL.`,
      'token',
    );
  }
  return channelView(channel);
}

/** Removes the bot's webhook at Viber (best effort): what went wrong, or null. */
export async function disconnectViber(channel: ChannelRow): Promise<string | null> {
  const { token } = viberCredentials(channel);
  const removed = await viberApi(token).call('set_webhook', { url: '' });
  return removed.ok ? null : `Viber did not remove the webhook: ${removed.description}`;
}

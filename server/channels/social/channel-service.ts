import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { connectSocialInput } from '@/lib/channels/connect-inputs';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { baseUrl } from '@/server/config/env';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db } from '@/server/db/client-type';
import { DomainError, invalid, parseInput } from '@/server/errors';
import type { ChannelRow } from '../channel-module';
import { channelView } from '../channel-view';
import { GRAPH_REFUSAL_CAUSES, type GraphApi, graphApi } from '../meta/graph-api';
import { verifyTokenHash } from '../meta/webhook';
import { type PlatformRefusals, refusal } from '../refusal';
import { socialEnv } from './env';

/**
 * Connecting an Instagram professional account through the Graph API (docs/channels/instagram.md):
 * the access token is checked by reading the account's username, which becomes the channel's
 * group_id (the interface's `login`, as `check_social_subscription` names it); the app is
 * subscribed to the account's messaging webhooks (best effort: the app's dashboard can do it
 * too); the token and the app secret are stored sealed (secret-box). Meta calls the webhook shown
 * at connection after the handshake with the verify token shown once (only its hash is kept).
 */

export const SOCIAL_CLIENT_TYPE = CLIENT_TYPES.social;

/** The Graph API's version the channel speaks. */
const VERSION = 'v21.0';

/** The webhook fields the channel reads (messages, postbacks, reads, comments on posts). */
export const WEBHOOK_FIELDS = 'messages,messaging_postbacks,messaging_seen,comments';

/**
 * The API root for a token: BLOCKBOT_SOCIAL_API_ROOT when set (tests), else graph.instagram.com
 * for an Instagram user token (IGAA…, Instagram Login) and graph.facebook.com for a Page's.
 */
export function socialApiRoot(token: string): string {
  const root = socialEnv().BLOCKBOT_SOCIAL_API_ROOT;
  if (root) return root.replace(/\/+$/, '');
  return token.startsWith('IG')
    ? `https://graph.instagram.com/${VERSION}`
    : `https://graph.facebook.com/${VERSION}`;
}

export const instagramApi = (token: string): GraphApi => graphApi(token, socialApiRoot(token), 'social');

interface SealedSocial {
  accountId: string;
  token: string;
  appSecret: string;
}

/** The account's credentials, opened. */
export interface SocialCredentials {
  accountId: string;
  token: string;
  appSecret: string;
}

type Owner = { projectId: number; groupId: string; credentials: unknown };

/** Sealed values are bound to their project, account and use: a copied value opens nowhere else. */
const context = (projectId: number, accountId: string, what: 'token' | 'app-secret') =>
  `social-channel:${projectId}:${accountId}:${what}`;

const MAX_OPENED = 256;
const opened = new Map<string, SocialCredentials>();

/** The account's credentials, opened once per process (keyed by the sealed values). */
export function socialCredentials(channel: Owner): SocialCredentials {
  const sealed = channel.credentials as Partial<SealedSocial> | null;
  if (!sealed?.token || !sealed.appSecret || !sealed.accountId)
    throw new Error(`the Instagram account ${channel.groupId} has no stored credentials`);
  const key = `${channel.projectId} ${sealed.token} ${sealed.appSecret}`;
  let credentials = opened.get(key);
  if (credentials) opened.delete(key);
  else
    credentials = {
      accountId: sealed.accountId,
      token: decryptSecret(sealed.token, context(channel.projectId, sealed.accountId, 'token')),
      appSecret: decryptSecret(sealed.appSecret, context(channel.projectId, sealed.accountId, 'app-secret')),
    };
  opened.set(key, credentials);
  if (opened.size > MAX_OPENED) opened.delete(opened.keys().next().value as string);
  return credentials;
}

export const socialWebhookUrl = (channelId: number) =>
  `${baseUrl().replace(/\/+$/, '')}/api/channels/social/${channelId}`;

/** What the Channels tab shows of an account: never its token nor its app secret. */
export function socialView(channel: Pick<ChannelRow, 'id' | 'credentials'>) {
  const sealed = channel.credentials as Partial<SealedSocial> | null;
  return { accountId: sealed?.accountId ?? '', webhookUrl: socialWebhookUrl(channel.id) };
}

/** A refused Graph API call as a message for the person connecting the account. */
const INSTAGRAM_REFUSALS: PlatformRefusals = {
  platform: 'The Graph API',
  causes: GRAPH_REFUSAL_CAUSES,
  credential: (description) =>
    `The Graph API does not accept this access token (${description}); create a long-lived Page token with instagram_manage_messages, or an Instagram token with instagram_business_manage_messages.`,
};

export async function connectSocialChannel(
  db: Db,
  projectId: number,
  input: z.input<typeof connectSocialInput>,
) {
  const { accountId, accessToken, appSecret } = parseInput(connectSocialInput, input);
  const api = instagramApi(accessToken);
  const account = await api.get<{ username?: string; name?: string }>(`${accountId}?fields=username,name`);
  if (!account.ok)
    throw invalid(
      refusal(account, 'read the Instagram account', INSTAGRAM_REFUSALS),
      account.reason === 'invalid_token' ? 'accessToken' : 'accountId',
    );
  const groupId = (account.result.username ?? '').toLowerCase();
  if (!groupId)
    throw invalid(
      `The Graph API gave no username for the account ${accountId}; check the account ID.`,
      'accountId',
    );
  const taken = await db.channel.findFirst({ where: { clientType: SOCIAL_CLIENT_TYPE, groupId } });
  if (taken)
    throw new DomainError(
      'conflict',
      taken.projectId === projectId
        ? `@${groupId} is already connected to this project.`
        : `@${groupId} is connected to another project; disconnect it there first (an account delivers its messages to one place).`,
      'accountId',
    );
  // Best effort: with a Page token the app may be subscribed in the dashboard instead.
  const subscribed = await api.post(`me/subscribed_apps?subscribed_fields=${WEBHOOK_FIELDS}`, {});
  const verifyToken = randomBytes(24).toString('base64url');
  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'social',
      clientType: SOCIAL_CLIENT_TYPE,
      groupId,
      name: account.result.name || `@${groupId}`,
      credentials: {
        accountId,
        token: encryptSecret(accessToken, context(projectId, accountId, 'token')),
        appSecret: encryptSecret(appSecret, context(projectId, accountId, 'app-secret')),
      } satisfies SealedSocial,
      inboundSecret: verifyTokenHash(verifyToken),
      receiveMode: 'webhook',
      lastError: subscribed.ok
        ? null
        : `The app could not subscribe itself to the account's webhooks (${subscribed.description}); subscribe ${WEBHOOK_FIELDS} in the app's dashboard.`,
    },
  });
  // The verify token is shown this once, with the address to paste beside it in the app's Webhooks.
  return { ...channelView(channel), webhook: { url: socialWebhookUrl(channel.id), verifyToken } };
}

import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { connectCloudInput } from '@/lib/channels/connect-inputs';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { baseUrl } from '@/server/config/env';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db } from '@/server/db/client-type';
import { DomainError, invalid, parseInput } from '@/server/errors';
import type { ChannelRow } from '../channel-module';
import { channelView } from '../channel-view';
import { GRAPH_REFUSAL_CAUSES, type GraphApi, graphApi } from '../meta/graph-api';
import { verifyTokenHash } from '../meta/webhook';
import { type PlatformRefusals, refusal } from '../refusal';
import { chatappEnv } from './env';
import { gatewayView, isGatewayChannel } from './gateway-service';

/** The Cloud API's root: BLOCKBOT_CHATAPP_API_ROOT when set (tests), else graph.facebook.com. */
const cloudApiRoot = () =>
  (chatappEnv().BLOCKBOT_CHATAPP_API_ROOT ?? 'https://graph.facebook.com/v23.0').replace(/\/+$/, '');

/** The Cloud API for one number's access token. */
export const cloudApi = (token: string): GraphApi => graphApi(token, cloudApiRoot(), 'chatapp');

/**
 * Connecting a WhatsApp Business number through the Cloud API: the access token is checked by
 * reading the number, the app is subscribed to the business account's webhooks, and the token
 * and the app secret are stored sealed (secret-box). The number (E.164 digits) is the channel's
 * group_id, the interface's chat-app bot id. Meta calls the webhook shown at connection, after
 * the handshake with the verify token shown once (only its hash is kept).
 */

export const CHATAPP_CLIENT_TYPE = CLIENT_TYPES.chatapp;

/** The template sent when the client's 24-hour window is closed: its body's parameters in order. */
export const windowTemplateSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, {
      error: 'must be the template’s name as approved: lower-case letters, digits and _',
    }),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'must be the template’s language code, like en or en_US' }),
  /** Each `{message}` (the message's text), `{name}` (the client's) or text as written. */
  parameters: z
    .array(z.string().max(1024, { error: 'must be at most 1024 characters' }))
    .max(20)
    .default([]),
});
export type WindowTemplate = z.infer<typeof windowTemplateSchema>;

export const chatappSettingsSchema = z.object({
  windowTemplate: windowTemplateSchema.nullable().default(null),
});
export type ChatappSettings = z.infer<typeof chatappSettingsSchema>;

export const updateChatappInput = z.object({
  channelId: z.number().int().positive(),
  windowTemplate: windowTemplateSchema.nullable(),
});

interface SealedCloud {
  provider: 'cloud';
  phoneNumberId: string;
  businessAccountId: string;
  token: string;
  appSecret: string;
}

/** The number's Cloud API credentials, opened. */
export interface CloudCredentials {
  phoneNumberId: string;
  businessAccountId: string;
  token: string;
  appSecret: string;
}

type Owner = { projectId: number; groupId: string; credentials: unknown };

/** Sealed values are bound to their project, number and use: a copied value opens nowhere else. */
const context = (projectId: number, groupId: string, what: 'token' | 'app-secret') =>
  `chatapp-channel:${projectId}:${groupId}:${what}`;

/** Numbers' credentials kept opened per process (the least recently used beyond this many is dropped). */
const MAX_OPENED = 256;
const opened = new Map<string, CloudCredentials>();

/**
 * The number's credentials, opened once per process and reused by every update and send: keyed
 * by the sealed values, so a number connected again with new ones is opened again.
 */
export function cloudCredentials(channel: Owner): CloudCredentials {
  const sealed = channel.credentials as Partial<SealedCloud> | null;
  if (sealed?.provider !== 'cloud' || !sealed.token || !sealed.appSecret || !sealed.phoneNumberId)
    throw new Error(`the chat-app number ${channel.groupId} has no stored Cloud API credentials`);
  const key = `${context(channel.projectId, channel.groupId, 'token')} ${sealed.token} ${sealed.appSecret}`;
  let credentials = opened.get(key);
  if (credentials) opened.delete(key);
  else
    credentials = {
      phoneNumberId: sealed.phoneNumberId,
      businessAccountId: sealed.businessAccountId ?? '',
      token: decryptSecret(sealed.token, context(channel.projectId, channel.groupId, 'token')),
      appSecret: decryptSecret(sealed.appSecret, context(channel.projectId, channel.groupId, 'app-secret')),
    };
  opened.set(key, credentials);
  if (opened.size > MAX_OPENED) opened.delete(opened.keys().next().value as string);
  return credentials;
}

/** The channel's settings, read leniently: a stored value that no longer parses is no template. */
export function chatappSettings(channel: { settings: unknown }): ChatappSettings {
  const parsed = chatappSettingsSchema.safeParse(channel.settings ?? {});
  return parsed.success ? parsed.data : { windowTemplate: null };
}

/** What the Channels tab shows of a number: never its token nor its app secret. */
export function chatappView(channel: Pick<ChannelRow, 'id' | 'credentials' | 'settings' | 'status'>) {
  if (isGatewayChannel(channel))
    return { ...gatewayView(channel), webhookUrl: chatappWebhookUrl(channel.id) };
  const sealed = channel.credentials as Partial<SealedCloud> | null;
  return {
    provider: 'cloud' as const,
    phoneNumberId: sealed?.phoneNumberId ?? '',
    businessAccountId: sealed?.businessAccountId ?? '',
    webhookUrl: chatappWebhookUrl(channel.id),
    windowTemplate: chatappSettings(channel).windowTemplate,
  };
}

export const chatappWebhookUrl = (channelId: number) =>
  `${baseUrl().replace(/\/+$/, '')}/api/channels/chatapp/${channelId}`;

/** A refused Graph API call as a message for the person connecting the number. */
const CLOUD_REFUSALS: PlatformRefusals = {
  platform: 'The Cloud API',
  causes: GRAPH_REFUSAL_CAUSES,
  credential: (description) =>
    `The Cloud API does not accept this access token (${description}); create a permanent token for a system user with the whatsapp_business_messaging permission.`,
};

export async function connectCloudChannel(
  db: Db,
  projectId: number,
  input: z.input<typeof connectCloudInput>,
) {
  const { phoneNumberId, businessAccountId, accessToken, appSecret } = parseInput(connectCloudInput, input);
  const api = cloudApi(accessToken);
  const number = await api.get<{ display_phone_number?: string; verified_name?: string }>(
    `${phoneNumberId}?fields=display_phone_number,verified_name`,
  );
  if (!number.ok)
    throw invalid(
      refusal(number, 'read the phone number', CLOUD_REFUSALS),
      number.reason === 'invalid_token' ? 'accessToken' : 'phoneNumberId',
    );
  const groupId = phoneDigits(number.result.display_phone_number ?? '');
  if (groupId.length < 5)
    throw invalid(
      `The Cloud API gave no phone number for ID ${phoneNumberId}; check the phone number ID.`,
      'phoneNumberId',
    );
  const taken = await db.channel.findFirst({ where: { clientType: CHATAPP_CLIENT_TYPE, groupId } });
  if (taken)
    throw new DomainError(
      'conflict',
      taken.projectId === projectId
        ? `+${groupId} is already connected to this project.`
        : `+${groupId} is connected to another project; disconnect it there first (a number delivers its messages to one place).`,
      'phoneNumberId',
    );
  const subscribed = await api.post(`${businessAccountId}/subscribed_apps`, {});
  if (!subscribed.ok)
    throw invalid(
      refusal(subscribed, 'subscribe the app to the business account’s webhooks', CLOUD_REFUSALS),
      'businessAccountId',
    );

  const verifyToken = randomBytes(24).toString('base64url');
  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'chatapp',
      clientType: CHATAPP_CLIENT_TYPE,
      groupId,
      name: number.result.verified_name ?? `+${groupId}`,
      credentials: {
        provider: 'cloud',
        phoneNumberId,
        businessAccountId,
        token: encryptSecret(accessToken, context(projectId, groupId, 'token')),
        appSecret: encryptSecret(appSecret, context(projectId, groupId, 'app-secret')),
      } satisfies SealedCloud,
      inboundSecret: verifyTokenHash(verifyToken),
      receiveMode: 'webhook',
      settings: { windowTemplate: null },
    },
  });
  // The verify token is shown this once, with the address to paste beside it in the app's Webhooks.
  return { ...channelView(channel), webhook: { url: chatappWebhookUrl(channel.id), verifyToken } };
}

export async function updateChatappSettings(
  db: Db,
  projectId: number,
  input: z.input<typeof updateChatappInput>,
) {
  const { channelId, windowTemplate } = parseInput(updateChatappInput, input);
  const channel = await db.channel.findFirst({ where: { id: channelId, projectId, kind: 'chatapp' } });
  if (!channel)
    throw new DomainError('not_found', 'No chat-app number with this id is connected to this project.');
  const updated = await db.channel.update({
    where: { id: channelId },
    data: { settings: { windowTemplate } },
  });
  return channelView(updated);
}

/** The project's connected chat-app number with this bot id (its digits, in any format), or null. */
export function findChatappChannel(db: Db, projectId: number, botId: string) {
  return db.channel.findFirst({
    where: { projectId, clientType: CHATAPP_CLIENT_TYPE, groupId: phoneDigits(botId) },
  });
}

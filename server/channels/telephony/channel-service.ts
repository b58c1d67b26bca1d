import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { connectTelephonyInput, telephonyVoiceInput } from '@/lib/channels/connect-inputs';
import { CLIENT_TYPES } from '@/lib/channels/descriptors';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import type { VoiceSettings } from '@/lib/telephony/verbs';
import { baseUrl } from '@/server/config/env';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { plainSql } from '@/server/db/raw-sql';
import { DomainError, invalid, parseInput } from '@/server/errors';
import { channelView } from '../channel-view';
import { OpenedCredentials } from '../opened-credentials';
import { jambonzApi } from './rest-api';
import { projectTelephonyChannel, type TelephonyChannelRow } from './sql';

/**
 * Connecting a jambonz voice gateway: the API key is checked by reading the application, and
 * the API key and the webhook secret are stored sealed (secret-box). The caller number (E.164
 * digits) is the channel's group_id; its clients have none (`groupless`). The addresses to
 * enter as the application's calling and call status webhooks are answered at connection, and
 * are part of the channel's view on the Channels tab (`telephonyView`) with its voice settings.
 */

export const TELEPHONY_CLIENT_TYPE = CLIENT_TYPES.telephony;

interface SealedTelephony {
  apiUrl: string;
  accountSid: string;
  applicationSid: string;
  apiKey: string;
  webhookSecret: string;
}

/** The channel's jambonz credentials, opened. */
export interface TelephonyCredentials {
  apiUrl: string;
  accountSid: string;
  applicationSid: string;
  apiKey: string;
  webhookSecret: string;
}

/**
 * How the channel speaks, where a call asking for an operator goes, whether what is said after
 * that transfer is transcribed into the conversation, and whether calls' recordings are kept.
 */
export interface TelephonySettings extends VoiceSettings {
  transferNumber: string;
  transcribeTransfers: boolean;
  keepRecordings: boolean;
}

type Owner = { projectId: number; groupId: string; credentials: unknown };

const context = (projectId: number, groupId: string, what: 'api-key' | 'webhook-secret') =>
  `telephony-channel:${projectId}:${groupId}:${what}`;

const opened = new OpenedCredentials<TelephonyCredentials>();

/** The channel's credentials, opened once per process. */
export function telephonyCredentials(channel: Owner): TelephonyCredentials {
  const sealed = channel.credentials as Partial<SealedTelephony> | null;
  if (!sealed?.apiKey || !sealed.webhookSecret || !sealed.apiUrl || !sealed.accountSid)
    throw new Error(`the telephony channel ${channel.groupId} has no stored jambonz credentials`);
  const { apiKey, webhookSecret, apiUrl, accountSid } = sealed;
  const sealedWith = (what: Parameters<typeof context>[2]) =>
    context(channel.projectId, channel.groupId, what);
  return opened.get(`${sealedWith('api-key')} ${apiKey} ${webhookSecret}`, () => ({
    apiUrl,
    accountSid,
    applicationSid: sealed.applicationSid ?? '',
    apiKey: decryptSecret(apiKey, sealedWith('api-key')),
    webhookSecret: decryptSecret(webhookSecret, sealedWith('webhook-secret')),
  }));
}

/** The channel's voice settings, read leniently (defaults for anything missing). */
export function telephonySettings(channel: { settings: unknown }): TelephonySettings {
  const s = (channel.settings ?? {}) as Partial<TelephonySettings>;
  return {
    vendor: typeof s.vendor === 'string' && s.vendor ? s.vendor : 'google',
    language: typeof s.language === 'string' && s.language ? s.language : 'en-US',
    voice: typeof s.voice === 'string' ? s.voice : '',
    transferNumber: typeof s.transferNumber === 'string' ? s.transferNumber : '',
    transcribeTransfers: s.transcribeTransfers === true,
    keepRecordings: s.keepRecordings === true,
  };
}

/** The channel's addresses: its calling webhook, and below it what jambonz calls back. */
export function telephonyUrls(channelId: number) {
  const root = `${baseUrl().replace(/\/+$/, '')}/api/channels/telephony/${channelId}`;
  return {
    callHook: root,
    statusHook: `${root}/status`,
    gather: `${root}/gather`,
    pending: `${root}/pending`,
    dialEnd: `${root}/dial-end`,
    transcript: `${root}/transcript`,
  };
}

/** What the Channels tab shows of a telephony channel: its voice settings and the addresses to enter in jambonz. */
export function telephonyView(channel: { id: number; settings: unknown }) {
  const { callHook, statusHook } = telephonyUrls(channel.id);
  return { settings: telephonySettings(channel), webhook: { callHook, statusHook } };
}

/**
 * A gather's actionHook, with a turn id of its own: the caller's answers to two gathers can be
 * alike (1, then 1 again, in a menu that loops), and each must be a turn of its own, while the
 * same answer posted again to one gather is stored once (webhook.ts keys answers by it).
 */
export const gatherHook = (channelId: number, silences = 0) =>
  `${telephonyUrls(channelId).gather}?turn=${randomBytes(6).toString('hex')}${silences ? `&silence=${silences}` : ''}`;

export async function connectTelephonyChannel(
  db: Db,
  projectId: number,
  input: z.input<typeof connectTelephonyInput>,
) {
  const parsed = parseInput(connectTelephonyInput, input);
  const { apiUrl, accountSid, apiKey, applicationSid, webhookSecret, callerNumber } = parsed;
  const api = jambonzApi(apiUrl, apiKey);
  const app = await api.get<{ name?: string; account_sid?: string }>(`Applications/${applicationSid}`);
  if (!app.ok)
    throw invalid(
      app.reason === 'unauthorized'
        ? `jambonz does not accept this API key (${app.description}).`
        : app.reason === 'not_found'
          ? `jambonz has no application ${applicationSid} (${app.description}); check the application SID.`
          : `jambonz could not be asked about the application: ${app.description}`,
      app.reason === 'unauthorized' ? 'apiKey' : app.reason === 'not_found' ? 'applicationSid' : 'apiUrl',
    );
  if (app.result.account_sid && app.result.account_sid !== accountSid)
    throw invalid(`The application ${applicationSid} belongs to another account.`, 'accountSid');
  const groupId = phoneDigits(callerNumber);
  const taken = await db.channel.findFirst({ where: { kind: 'telephony', groupId } });
  if (taken)
    throw new DomainError(
      'conflict',
      taken.projectId === projectId
        ? `+${groupId} is already connected to this project.`
        : `+${groupId} is connected to another project; disconnect it there first.`,
      'callerNumber',
    );
  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'telephony',
      clientType: TELEPHONY_CLIENT_TYPE,
      groupId,
      name: app.result.name ?? `+${groupId}`,
      credentials: {
        apiUrl,
        accountSid,
        applicationSid,
        apiKey: encryptSecret(apiKey, context(projectId, groupId, 'api-key')),
        webhookSecret: encryptSecret(webhookSecret, context(projectId, groupId, 'webhook-secret')),
      } satisfies SealedTelephony,
      receiveMode: 'webhook',
      settings: {
        vendor: parsed.voiceVendor,
        language: parsed.language,
        voice: parsed.voice,
        transferNumber: parsed.transferNumber ? phoneDigits(parsed.transferNumber) : '',
        transcribeTransfers: parsed.transcribeTransfers,
        keepRecordings: parsed.keepRecordings,
      } satisfies TelephonySettings,
    },
  });
  return { ...channelView(channel), webhook: telephonyView(channel).webhook };
}

/** The voice settings a connected channel may change: the connect form's fields for them. */
export const updateTelephonyInput = telephonyVoiceInput.extend({ channelId: z.number().int().positive() });

export async function updateTelephonySettings(
  db: Db,
  projectId: number,
  input: z.input<typeof updateTelephonyInput>,
) {
  const { channelId, voiceVendor, language, voice, transferNumber, transcribeTransfers, keepRecordings } =
    parseInput(updateTelephonyInput, input);
  const channel = await db.channel.findFirst({ where: { id: channelId, projectId, kind: 'telephony' } });
  if (!channel)
    throw new DomainError('not_found', 'No telephony channel with this id is connected to this project.');
  const updated = await db.channel.update({
    where: { id: channelId },
    data: {
      settings: {
        vendor: voiceVendor,
        language,
        voice,
        transferNumber: transferNumber ? phoneDigits(transferNumber) : '',
        transcribeTransfers,
        keepRecordings,
      } satisfies TelephonySettings,
    },
  });
  return channelView(updated);
}

/**
 * The telephony channel a client's messages go through: `channelId` when it is still connected
 * to the client's project (the channel of their call, or of their latest one), else the
 * project's first connected (a client who never called nor was called has no channel of their
 * own: telephony clients have no group_id).
 */
export async function clientTelephonyChannel(
  db: PrismaClient,
  projectId: number,
  channelId: number | null,
): Promise<TelephonyChannelRow | null> {
  const [row] = await plainSql(db).run(projectTelephonyChannel, { projectId, id: channelId ?? 0 });
  return row ?? null;
}

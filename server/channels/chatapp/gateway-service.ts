import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { connectGatewayInput } from '@/lib/channels/connect-inputs';
import { CHANNEL_STATUS } from '@/lib/channels/descriptors';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { gatewayChannelStatus } from '@/lib/chatapp/gateway-webhook';
import { decryptSecret, encryptSecret } from '@/server/config/secret-box';
import type { Db } from '@/server/db/client-type';
import { DomainError, invalid, parseInput } from '@/server/errors';
import type { ChannelRow } from '../channel-module';
import { channelView } from '../channel-view';
import { type FailedCall, type PlatformRefusals, refusal, refusalCause } from '../refusal';
import { CHATAPP_CLIENT_TYPE, chatappWebhookUrl } from './channel-service';
import { type GatewayApi, gatewayApi } from './gateway-api';

/**
 * Connecting a number through a WhatsApp Web session gateway (WAHA, self-hosted): the session
 * is created (or its configuration replaced) with this channel's webhook, signed with a key
 * made here (HMAC-SHA512, `X-Webhook-Hmac`), and started; the Channels tab shows its QR code
 * until the phone is paired. The paired phone's number becomes the channel's group_id (the
 * interface's chat-app bot id); until then it is empty. The API key and the webhook key are
 * stored sealed (secret-box) and never shown again.
 */

interface SealedGateway {
  provider: 'gateway';
  url: string;
  session: string;
  apiKey: string;
  hmacKey: string;
}

export interface GatewayCredentials {
  url: string;
  session: string;
  apiKey: string;
  /** The key the gateway signs its webhooks with. */
  hmacKey: string;
}

export const isGatewayChannel = (channel: { credentials: unknown }) =>
  (channel.credentials as { provider?: unknown } | null)?.provider === 'gateway';

/** Bound to the project, the gateway and the session: a copied value opens nowhere else. */
const context = (projectId: number, url: string, session: string, what: 'api-key' | 'hmac-key') =>
  `chatapp-gateway:${projectId}:${url}:${session}:${what}`;

const MAX_OPENED = 256;
const opened = new Map<string, GatewayCredentials>();

/** The session's credentials, opened once per process (keyed by the sealed values). */
export function gatewayCredentials(channel: { projectId: number; credentials: unknown }): GatewayCredentials {
  const sealed = channel.credentials as Partial<SealedGateway> | null;
  if (sealed?.provider !== 'gateway' || !sealed.url || !sealed.session || !sealed.apiKey || !sealed.hmacKey)
    throw new Error('this chat-app channel has no stored gateway credentials');
  const key = `${channel.projectId} ${sealed.apiKey} ${sealed.hmacKey}`;
  let credentials = opened.get(key);
  if (credentials) opened.delete(key);
  else
    credentials = {
      url: sealed.url,
      session: sealed.session,
      apiKey: decryptSecret(sealed.apiKey, context(channel.projectId, sealed.url, sealed.session, 'api-key')),
      hmacKey: decryptSecret(
        sealed.hmacKey,
        context(channel.projectId, sealed.url, sealed.session, 'hmac-key'),
      ),
    };
  opened.set(key, credentials);
  if (opened.size > MAX_OPENED) opened.delete(opened.keys().next().value as string);
  return credentials;
}

export const gatewayApiOf = (channel: { projectId: number; credentials: unknown }): GatewayApi => {
  const { url, apiKey } = gatewayCredentials(channel);
  return gatewayApi(url, apiKey);
};

/** What the Channels tab shows of a gateway session: never its API key nor its webhook key. */
export function gatewayView(channel: Pick<ChannelRow, 'credentials' | 'status'>) {
  const sealed = channel.credentials as Partial<SealedGateway> | null;
  return {
    provider: 'gateway' as const,
    url: sealed?.url ?? '',
    session: sealed?.session ?? '',
    status: channel.status,
  };
}

const SESSION_EVENTS = ['message', 'message.ack', 'session.status'];

function sessionConfig(channelId: number, hmacKey: string) {
  return {
    webhooks: [
      {
        url: chatappWebhookUrl(channelId),
        events: SESSION_EVENTS,
        hmac: { key: hmacKey },
        // The gateway tries a delivery we did not answer again, with growing pauses.
        retries: { policy: 'exponential', delaySeconds: 2, attempts: 8 },
      },
    ],
    metadata: { 'blockbot.channel': String(channelId) },
  };
}

const GATEWAY_REFUSALS: PlatformRefusals = {
  platform: 'The gateway',
  causes: { unauthorized: 'credential', unavailable: 'unreachable' },
  credential: (description, what) =>
    `The gateway refused the API key while trying to ${what} (${description}); use its WAHA_API_KEY.`,
};
const REFUSED_FIELD = { credential: 'apiKey', unreachable: 'url', refused: 'session' } as const;

/** A refused call as a message for the person connecting, on the field to fix. */
const refused = (result: FailedCall, what: string) =>
  invalid(refusal(result, what, GATEWAY_REFUSALS), REFUSED_FIELD[refusalCause(result, GATEWAY_REFUSALS)]);

interface SessionInfo {
  name: string;
  status: string;
  me?: { id: string; pushName?: string } | null;
}

export async function connectGatewayChannel(
  db: Db,
  projectId: number,
  input: z.input<typeof connectGatewayInput>,
) {
  const { url, apiKey, session } = parseInput(connectGatewayInput, input);
  const unpaired = await db.channel.findFirst({
    where: { projectId, clientType: CHATAPP_CLIENT_TYPE, groupId: '' },
  });
  if (unpaired)
    throw new DomainError(
      'conflict',
      'A gateway session of this project is still waiting to be paired: scan its QR code or remove it first.',
      'session',
    );
  const api = gatewayApi(url, apiKey);
  const listed = await api.get<SessionInfo>(`/api/sessions/${session}`);
  if (!listed.ok && listed.status !== 404) throw refused(listed, 'read the session');

  const hmacKey = randomBytes(32).toString('hex');
  const channel = await db.channel.create({
    data: {
      projectId,
      kind: 'chatapp',
      clientType: CHATAPP_CLIENT_TYPE,
      groupId: '',
      name: '',
      status: CHANNEL_STATUS.notStarted,
      credentials: {
        provider: 'gateway',
        url,
        session,
        apiKey: encryptSecret(apiKey, context(projectId, url, session, 'api-key')),
        hmacKey: encryptSecret(hmacKey, context(projectId, url, session, 'hmac-key')),
      } satisfies SealedGateway,
      receiveMode: 'webhook',
      settings: { windowTemplate: null },
    },
  });
  try {
    const config = sessionConfig(channel.id, hmacKey);
    // An existing session keeps its pairing: only its configuration is replaced (the gateway restarts it).
    const saved = listed.ok
      ? await api.put<SessionInfo>(`/api/sessions/${session}`, { name: session, config })
      : await api.post<SessionInfo>('/api/sessions', { name: session, start: true, config });
    if (!saved.ok) throw refused(saved, listed.ok ? 'update the session' : 'create the session');
    if (saved.result.status === 'STOPPED') {
      const started = await api.post(`/api/sessions/${session}/start`, {});
      if (!started.ok) throw refused(started, 'start the session');
    }
    const state = saved.result.status === 'STOPPED' ? 'STARTING' : saved.result.status;
    return channelView(await applySessionState(db, channel, state, meOf(saved.result)));
  } catch (error) {
    await db.channel.delete({ where: { id: channel.id } });
    throw error;
  }
}

const meOf = (info: SessionInfo) =>
  info.me?.id ? { phone: phoneDigits(info.me.id), name: info.me.pushName ?? '' } : null;

/**
 * A session's state, as its webhook or the gateway reported it, on the channel: its status
 * (connected_channels), and once paired, the phone's number as the channel's group_id. A
 * number already connected elsewhere is not taken: the channel says why instead.
 */
export async function applySessionState(
  db: Db,
  channel: ChannelRow,
  state: string,
  me: { phone: string; name: string } | null,
): Promise<ChannelRow> {
  const data: { status: number; groupId?: string; name?: string; lastError?: string | null } = {
    status: gatewayChannelStatus(state),
  };
  if (state === 'WORKING') data.lastError = null;
  if (state === 'FAILED')
    data.lastError =
      'The gateway’s session failed: the phone was unlinked or stayed offline too long. Restart the session, or pair the phone again.';
  if (me && me.phone.length >= 5 && me.phone !== channel.groupId) {
    const taken = await db.channel.findFirst({
      where: { clientType: CHATAPP_CLIENT_TYPE, groupId: me.phone, NOT: { id: channel.id } },
    });
    if (taken)
      data.lastError = `+${me.phone} is already connected ${taken.projectId === channel.projectId ? 'to this project' : 'to another project'}: its messages go there. Remove that connection, then restart this session.`;
    else {
      data.groupId = me.phone;
      data.name = me.name || `+${me.phone}`;
    }
  }
  return db.channel.update({ where: { id: channel.id }, data });
}

async function gatewayChannel(db: Db, projectId: number, channelId: number) {
  const channel = await db.channel.findFirst({ where: { id: channelId, projectId, kind: 'chatapp' } });
  if (!channel || !isGatewayChannel(channel))
    throw new DomainError('not_found', 'No gateway session with this id is connected to this project.');
  return channel;
}

/**
 * The session as the gateway has it now, for the Channels tab while pairing: its state, and
 * the QR code to scan (a PNG as a data URL) while it waits for one.
 */
export async function gatewayPairing(db: Db, projectId: number, channelId: number) {
  const channel = await gatewayChannel(db, projectId, channelId);
  const { session } = gatewayCredentials(channel);
  const api = gatewayApiOf(channel);
  const info = await api.get<SessionInfo>(`/api/sessions/${session}`);
  if (!info.ok) return { state: 'UNKNOWN', status: channel.status, qr: null, error: info.description };
  const updated = await applySessionState(db, channel, info.result.status, meOf(info.result));
  let qr: string | null = null;
  if (info.result.status === 'SCAN_QR_CODE') {
    const image = await api.get<{ mimetype?: string; data?: string }>(
      `/api/${session}/auth/qr?format=image`,
      'application/json',
    );
    if (image.ok && image.result.data)
      qr = `data:${image.result.mimetype ?? 'image/png'};base64,${image.result.data}`;
  }
  return { state: info.result.status, status: updated.status, qr, error: null };
}

/** Restarts the session (a FAILED one, or one whose QR code expired). */
export async function restartGateway(db: Db, projectId: number, channelId: number) {
  const channel = await gatewayChannel(db, projectId, channelId);
  const { session } = gatewayCredentials(channel);
  const restarted = await gatewayApiOf(channel).post(`/api/sessions/${session}/restart`, {});
  if (!restarted.ok) throw refused(restarted, 'restart the session');
  return gatewayPairing(db, projectId, channelId);
}

/**
 * As the channel is removed: the session stops sending here (this channel's webhook is taken
 * out of its configuration); the phone stays paired with the gateway.
 */
export async function disconnectGateway(channel: ChannelRow): Promise<string | null> {
  const { session } = gatewayCredentials(channel);
  const api = gatewayApiOf(channel);
  const info = await api.get<{ config?: { webhooks?: { url?: string }[] } & Record<string, unknown> }>(
    `/api/sessions/${session}`,
  );
  if (!info.ok) return `The gateway could not be told to stop sending here: ${info.description}`;
  const own = chatappWebhookUrl(channel.id);
  const config = info.result.config ?? {};
  const saved = await api.put(`/api/sessions/${session}`, {
    name: session,
    config: { ...config, webhooks: (config.webhooks ?? []).filter((w) => w.url !== own) },
  });
  return saved.ok ? null : `The gateway could not be told to stop sending here: ${saved.description}`;
}

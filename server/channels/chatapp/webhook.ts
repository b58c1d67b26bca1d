import { type CloudUpdate, cloudUpdates } from '@/lib/chatapp/cloud-webhook';
import { handshakeResponse, hubSigned } from '../meta/webhook';
import { answerSignedWebhook, answerWebhookGet, type SignedWebhook, storeDelivery } from '../signed-webhook';
import { webhookChannels } from '../webhook-channels';
import { cloudCredentials } from './channel-service';
import { gatewayCredentials, isGatewayChannel } from './gateway-service';
import {
  GATEWAY_SIGNATURE_HEADER,
  type GatewayWebhookChannel,
  gatewayWebhook,
  validGatewaySignature,
} from './gateway-webhook';
import { chatappInbound } from './updates';

/**
 * `/api/channels/chatapp/<channel>`: the Cloud API's webhook of one connected number.
 * GET is the subscription handshake (the verify token shown at connection). A POST is checked
 * against `X-Hub-Signature-256` with the app secret over the raw body before anything is
 * stored: no number connected here is a 404, a missing or wrong signature a 401 (Meta signs
 * every delivery; anything else is not Meta's). A signed delivery is answered 200 once its
 * updates are stored (Meta resends an unanswered one for up to 7 days, and a resend is dropped
 * by the message's id); one that is not this API's webhook is answered 200 too, with why
 * recorded on the channel (server/channels/signed-webhook.ts). This process then runs the
 * updates (./updates.ts). A number connected through a session gateway has its webhook here
 * too (./gateway-webhook.ts).
 */

export const MAX_WEBHOOK_BYTES = 3 * 1024 * 1024;

interface CloudWebhookChannel {
  provider: 'cloud';
  id: number;
  groupId: string;
  inboundSecret: string;
  phoneNumberId: string;
  appSecret: string;
}

type WebhookChannel = CloudWebhookChannel | GatewayWebhookChannel;

/** The channels' handshake hash, number and app secret (or gateway session and key), opened once. */
const channels = webhookChannels<WebhookChannel>('chatapp', (row) => {
  const common = { id: row.id, groupId: row.groupId, inboundSecret: row.inboundSecret };
  if (isGatewayChannel(row)) {
    const { session, hmacKey } = gatewayCredentials(row);
    return { ...common, provider: 'gateway', session, hmacKey };
  }
  const { phoneNumberId, appSecret } = cloudCredentials(row);
  return { ...common, provider: 'cloud', phoneNumberId, appSecret };
});

const hook: SignedWebhook<WebhookChannel> = {
  channels,
  maxBytes: MAX_WEBHOOK_BYTES,
  notConnected: 'no chat-app number is connected at this address',
  signed: (req, body, channel) =>
    channel.provider === 'cloud'
      ? hubSigned(req, body, channel.appSecret)
      : validGatewaySignature(body, req.headers.get(GATEWAY_SIGNATURE_HEADER), channel.hmacKey) ||
        `the X-Webhook-Hmac header is missing or is not the HMAC-SHA512 of the body with this session's webhook key`,
  receive: (deps, channel, body) =>
    channel.provider === 'gateway'
      ? gatewayWebhook(deps, channel, body, () => channels.forget(channel.id))
      : storeDelivery(deps, channel, body, {
          service: 'the Cloud API',
          read: cloudUpdates,
          inbound: chatappInbound,
          accepted: (delivery) => {
            const own = channel.phoneNumberId;
            const others = new Set(
              delivery.updates.map(numberOf).filter((n) => n !== undefined && n !== own),
            );
            return {
              updates: delivery.updates
                .filter((u) => numberOf(u) === own || numberOf(u) === undefined)
                .map((u) => ({ ...u, parsed: { via: 'cloud' as const, item: u.parsed } })),
              ...(others.size
                ? {
                    foreign: `events of the phone number ID ${[...others].join(', ')} came to this number's webhook: the app sends every number's events to one address, so connect each number with its own app, or they are not answered`,
                  }
                : {}),
            };
          },
        }),
};

/** The subscription handshake Meta makes when the callback URL is saved in the app. */
export const chatappHandshake = (req: Request, channelParam: string) =>
  answerWebhookGet(hook, channelParam, (channel) =>
    channel.provider === 'cloud' ? handshakeResponse(req, channel.inboundSecret) : undefined,
  );

export const chatappWebhook = (req: Request, channelParam: string) =>
  answerSignedWebhook(hook, req, channelParam);

const numberOf = (u: CloudUpdate): string | undefined =>
  'metadata' in u.payload ? u.payload.metadata.phone_number_id : undefined;

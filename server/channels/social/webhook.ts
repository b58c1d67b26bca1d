import { instagramUpdates } from '@/lib/social/instagram-webhook';
import { handshakeResponse, hubSigned } from '../meta/webhook';
import { answerSignedWebhook, answerWebhookGet, type SignedWebhook, storeDelivery } from '../signed-webhook';
import { webhookChannels } from '../webhook-channels';
import { socialCredentials } from './channel-service';
import { socialInbound } from './updates';

/**
 * `/api/channels/social/<channel>`: the Instagram messaging webhook of one connected account.
 * GET is the subscription handshake (the verify token shown at connection). A POST is checked
 * against `X-Hub-Signature-256` with the app secret over the raw body before anything is
 * stored: no account connected here is a 404, a missing or wrong signature a 401. A signed
 * delivery is answered 200 once its updates are stored (Meta resends an unanswered one, and a
 * resend is dropped by the message's id); one that is not Instagram's messaging webhook is
 * answered 200 too, with why recorded on the channel (server/channels/signed-webhook.ts).
 * This process then runs the updates (./updates.ts).
 */

export const MAX_WEBHOOK_BYTES = 3 * 1024 * 1024;

const channels = webhookChannels('social', (row) => ({ ...row, ...socialCredentials(row) }));
type SocialWebhookChannel = NonNullable<ReturnType<typeof channels.cached>>;

const hook: SignedWebhook<SocialWebhookChannel> = {
  channels,
  maxBytes: MAX_WEBHOOK_BYTES,
  notConnected: 'no Instagram account is connected at this address',
  signed: (req, body, channel) => hubSigned(req, body, channel.appSecret),
  receive: (deps, channel, body) =>
    storeDelivery(deps, channel, body, {
      service: 'Instagram',
      read: instagramUpdates,
      inbound: socialInbound,
      accepted: (delivery) => {
        const others = delivery.accounts.filter((a) => a !== channel.accountId);
        return {
          updates: delivery.updates.filter((u) => u.payload.account === channel.accountId),
          ...(others.length
            ? {
                foreign: `events of the Instagram account ${others.join(', ')} came to @${channel.groupId}'s webhook: the app sends every account's events to one address, so connect each account with its own app, or they are not answered`,
              }
            : {}),
        };
      },
    }),
};

export const socialHandshake = (req: Request, channelParam: string) =>
  answerWebhookGet(hook, channelParam, (channel) => handshakeResponse(req, channel.inboundSecret));

export const socialWebhook = (req: Request, channelParam: string) =>
  answerSignedWebhook(hook, req, channelParam);

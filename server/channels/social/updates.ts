import {
  type InstagramAttachment,
  type InstagramInbound,
  parseInstagramItem,
} from '@/lib/social/instagram-webhook';
import { COMMENT_KEY, LAST_MESSAGE_KEY } from '@/lib/social/instagram-window';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { logFor } from '@/server/log';
import { recordDeliveryStatus } from '../delivery-status';
import { fileAtUrl, runMessage, updateDone } from '../inbound/message-event';
import type { InboundProcessor, UpdateChannel, UpdateEnd } from '../inbound/pipeline';
import type { GraphApi } from '../meta/graph-api';
import { instagramApi, SOCIAL_CLIENT_TYPE, socialCredentials } from './channel-service';

const log = logFor('social');

/**
 * What Instagram's messaging updates do, on the channels' inbound pipeline: a person's message
 * (a text, a quick reply's or postback's payload, media, a story reply or mention) is marked
 * seen with the typing indicator on (the bot is working) and runs through the engine as the client's message, opening their 24-hour window (their channel state); the
 * first time, their profile's name and username are read (the username is what
 * `check_social_subscription` finds them by). Files are downloaded and kept as the client's
 * files; a story's address comes as a link. A read or delivery report moves the message's
 * delivery status. A bare number typed in answer to the bot's last options is the option's
 * text (they may have gone as numbered text: past the quick replies' limits, the hint variant,
 * a private reply). A comment on the account's post runs as the client's message too, kept as the
 * comment the bot may answer once, privately (no window opens: the person did not write).
 */

type InstagramFile = InstagramAttachment & { type: 'image' | 'video' | 'audio' | 'file' };

/** The client's channel state holding their Instagram username (lower case). */
export const USERNAME_KEY = 'social_username';

async function runUpdate(deps: EngineDeps, channel: UpdateChannel, update: InstagramInbound, end: UpdateEnd) {
  if (update.kind === 'invalid') return end.notProcessed(update.reason);
  if (update.kind === 'ignore') return updateDone(deps, end);
  const ref = { clientType: SOCIAL_CLIENT_TYPE, groupId: channel.groupId, platformId: update.from };
  if (update.kind === 'status') {
    const client = await deps.db.client.findUnique({
      where: { projectId_clientType_groupId_platformId: { projectId: channel.projectId, ...ref } },
      select: { id: true },
    });
    if (client)
      for (const externalId of update.mids)
        await recordDeliveryStatus(deps, {
          projectId: channel.projectId,
          clientId: client.id,
          externalId,
          status: update.status,
        });
    return updateDone(deps, end);
  }
  if (update.kind === 'comment') {
    // A comment starts a conversation the bot may answer once, privately (./adapter.ts).
    await handleEvent(
      deps,
      channel.projectId,
      { ref: { ...ref, ...(update.username ? { name: update.username } : {}) } },
      {
        type: 'message',
        text: update.text,
        attachments: [],
        channelState: {
          [COMMENT_KEY]: JSON.stringify({ id: update.commentId, at: new Date(update.sentAt).toISOString() }),
        },
      },
      { alsoWrite: end.done },
    );
    return;
  }
  // Seen, and "typing…" while the bot works: not waited for, and a refusal changes nothing.
  const { accountId, token } = socialCredentials(channel);
  const api = instagramApi(token);
  void (async () => {
    for (const action of ['mark_seen', 'typing_on']) {
      const sent = await api.post(`${accountId}/messages`, {
        recipient: { id: update.from },
        sender_action: action,
      });
      if (!sent.ok) return log.warn(`${action} for ${update.mid} was refused: ${sent.description}`);
    }
  })();
  const profile = await newProfile(deps, channel, api, ref);
  await runMessage(
    deps,
    channel,
    {
      client: { ...ref, ...(profile?.name ? { name: profile.name } : {}) },
      text: update.text,
      files: update.attachments
        .filter((a): a is InstagramFile => a.type !== 'link')
        .map((file, i) => fileAtUrl(`social:${update.mid}:${i}`, file, `${file.type}-${i + 1}`)),
      links: [
        ...update.attachments
          .filter((a) => a.type === 'link')
          .map((a) => ({ type: 'link' as const, url: a.url })),
        ...(update.story ? [{ type: 'link' as const, url: update.story.url }] : []),
      ],
      // Quick replies, or numbered text (past their limits, the hint variant, a private reply).
      numbered: () => true,
      channelState: {
        [LAST_MESSAGE_KEY]: new Date(update.sentAt).toISOString(),
        ...(profile?.username ? { [USERNAME_KEY]: profile.username } : {}),
      },
    },
    end,
  );
}

/**
 * The person's name and username from the User Profile API, for a client not seen before (or
 * whose username is not known yet): best effort, a refusal leaves them unnamed.
 */
async function newProfile(
  deps: EngineDeps,
  channel: UpdateChannel,
  api: GraphApi,
  ref: { clientType: number; groupId: string; platformId: string },
): Promise<{ name?: string; username?: string } | undefined> {
  const known = await deps.db.clientChannelState.findFirst({
    where: { key: USERNAME_KEY, client: { projectId: channel.projectId, ...ref } },
    select: { value: true },
  });
  if (known) return undefined;
  const got = await api.get<{ name?: string; username?: string }>(`${ref.platformId}?fields=name,username`);
  if (!got.ok) {
    log.warn(`the profile of ${ref.platformId} could not be read: ${got.description}`);
    return undefined;
  }
  return {
    ...(got.result.name ? { name: got.result.name } : {}),
    ...(got.result.username ? { username: got.result.username.toLowerCase() } : {}),
  };
}

export const socialInbound: InboundProcessor<InstagramInbound> = {
  kind: 'social',
  parse: (payload) => parseInstagramItem(payload),
  run: runUpdate,
};

import { inboundOf, readCallback, type ViberInbound } from '@/lib/viber/callbacks';
import { resolveClient } from '@/server/contacts/client-service';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { handleEvent } from '@/server/engine/handle-event';
import { recordDeliveryStatus } from '../delivery-status';
import { fileAtUrl, runMessage, updateDone } from '../inbound/message-event';
import type { InboundProcessor, UpdateChannel, UpdateEnd } from '../inbound/pipeline';
import { viberNumbered } from './adapter';
import { VIBER_CLIENT_TYPE } from './channel-service';
import { SUBSCRIBED_KEY, writeState } from './subscription';

/**
 * What Viber's callbacks do, on the channels' inbound pipeline: a person's message (text, a
 * keyboard press, which is its button's text, a picture, video or file, downloaded and kept as
 * the client's file, a sticker, contact, location or link) runs through the engine as the
 * client's message and marks them subscribed; a typed number answers options shown as numbered
 * text. `subscribed` and `unsubscribed` mark the client so (the adapter sends nothing to one
 * who unsubscribed); `conversation_started` from someone new starts the bot with the deep
 * link's context as their message, or `conversation_started` (its first answer goes as the
 * welcome message, ./welcome.ts); delivered, seen and failed move the message's status.
 */

/** The text a conversation opened without a deep link's context runs as. */
export const STARTED_TEXT = 'conversation_started';

const refOf = (channel: UpdateChannel, platformId: string, name?: string) => ({
  clientType: VIBER_CLIENT_TYPE,
  groupId: channel.groupId,
  platformId,
  ...(name ? { name } : {}),
});

const findClient = (deps: EngineDeps, channel: UpdateChannel, platformId: string) =>
  deps.db.client.findUnique({
    where: {
      projectId_clientType_groupId_platformId: {
        projectId: channel.projectId,
        clientType: VIBER_CLIENT_TYPE,
        groupId: channel.groupId,
        platformId,
      },
    },
    select: { id: true },
  });

async function runUpdate(deps: EngineDeps, channel: UpdateChannel, update: ViberInbound, end: UpdateEnd) {
  switch (update.kind) {
    case 'invalid':
      return end.notProcessed(update.reason);
    case 'ignore':
      return updateDone(deps, end);
    case 'status': {
      const client = await findClient(deps, channel, update.user);
      if (client)
        await recordDeliveryStatus(deps, {
          projectId: channel.projectId,
          clientId: client.id,
          externalId: update.token,
          status: update.status,
          ...(update.error ? { error: update.error } : {}),
        });
      return updateDone(deps, end);
    }
    case 'subscribed':
    case 'unsubscribed': {
      const client =
        update.kind === 'subscribed'
          ? await resolveClient(deps.db, channel.projectId, refOf(channel, update.user, update.name))
          : await findClient(deps, channel, update.user);
      if (client)
        await writeState(deps.db, client.id, SUBSCRIBED_KEY, update.kind === 'subscribed' ? 'yes' : 'no');
      return updateDone(deps, end);
    }
    case 'started': {
      const known = await findClient(deps, channel, update.user);
      if (known) {
        // Someone the bot knows opened the chat again: nothing to answer; subscribed if Viber says so.
        if (update.subscribed) await writeState(deps.db, known.id, SUBSCRIBED_KEY, 'yes');
        return updateDone(deps, end);
      }
      await handleEvent(
        deps,
        channel.projectId,
        { ref: refOf(channel, update.user, update.name) },
        {
          type: 'message',
          text: update.context ?? STARTED_TEXT,
          attachments: [],
          channelState: { [SUBSCRIBED_KEY]: update.subscribed ? 'yes' : 'no' },
        },
        { alsoWrite: end.done },
      );
      return;
    }
    case 'message':
      return runMessage(
        deps,
        channel,
        {
          client: refOf(channel, update.from, update.name),
          text: update.text,
          files: update.files.map((file, i) =>
            fileAtUrl(`viber:${update.token}:${i}`, file, `${file.type}-${i + 1}`),
          ),
          links: update.links.map((url) => ({ type: 'link' as const, url })),
          numbered: viberNumbered,
          channelState: { [SUBSCRIBED_KEY]: 'yes' },
        },
        end,
      );
  }
}

export const viberInbound: InboundProcessor<ViberInbound> = {
  kind: 'viber',
  parse: (payload) => {
    const read = readCallback(payload);
    return read.ok ? inboundOf(read.callback) : { kind: 'invalid', reason: read.reason };
  },
  run: runUpdate,
};

import type { PrismaClient } from '@/server/db/client-type';
import type { DeliveryResult, SendContext } from './channel-adapter';

/**
 * How one part of a message went: the messenger's id of it, or its error (with `retryAt`: not
 * sent yet, the send held until then, DeliveryResult.retryAt).
 */
export type PartOutcome = { ok: true; externalId?: string } | { ok: false; error: string; retryAt?: Date };

/**
 * Sends a message's parts in order, from the first one without a recorded answer (`partsSent`,
 * after a crash), recording each answered one but the last (`onPartSent`); the first failure
 * ends the send with its error (a held send, when the part says until when). `first` tells the part that starts this try. The result's
 * `externalId` is the last id the messenger gave.
 */
export async function sendInParts<P>(
  parts: P[],
  context: SendContext,
  sendPart: (part: P, first: boolean) => Promise<PartOutcome>,
): Promise<DeliveryResult> {
  const from = Math.min(context.partsSent ?? 0, parts.length);
  let externalId: string | undefined;
  for (let i = from; i < parts.length; i++) {
    const outcome = await sendPart(parts[i], i === from);
    if (!outcome.ok)
      return {
        delivered: false,
        error: outcome.error,
        ...(outcome.retryAt ? { retryAt: outcome.retryAt } : {}),
      };
    externalId = outcome.externalId ?? externalId;
    if (i < parts.length - 1) await context.onPartSent?.(i + 1);
  }
  return { delivered: true, ...(externalId ? { externalId } : {}) };
}

/**
 * A part's outcome from a Graph API send (`sendOne` of the chat-app's Cloud API and of Instagram):
 * a refused token (190) is also the channel's last error, so the Channels tab says to connect
 * `what` again.
 */
export async function graphPartOutcome(
  db: PrismaClient,
  channelId: number,
  what: string,
  outcome:
    | { ok: true; messageId?: string }
    | { ok: false; error: string; invalidToken: boolean; retryAt?: Date },
): Promise<PartOutcome> {
  if (outcome.ok) return { ok: true, externalId: outcome.messageId };
  if (outcome.invalidToken)
    await db.channel.update({
      where: { id: channelId },
      data: {
        lastError: `The Graph API refused the access token: ${outcome.error}. Connect ${what} again with a valid token.`,
      },
    });
  return outcome;
}

import { CHANNEL_DESCRIPTORS } from './channels/descriptors';

/** A channel as the Channels tab lists it (`listChannels`): what `channelReach` reads of it. */
export interface ReachChannel {
  kind: string;
  /** False for a tg bot the messenger stopped delivering to (its token was revoked, say). */
  receiving: boolean;
  /** A chat widget's sites: one that allows none reaches no client. */
  widget: { settings: { allowedOrigins: readonly string[] } } | null;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Takes clients' messages: receiving, and, for a widget, allowed on at least one site. */
const reaches = (c: ReachChannel) =>
  c.receiving && (c.widget ? c.widget.settings.allowedOrigins.length > 0 : true);

/**
 * Where clients can reach the bot, for the Channels tab's summary: every channel that takes
 * clients' messages counts, by its kind's word (`reach` in lib/channels/descriptors.ts), so the
 * bot "talks only in the simulator" only when none does.
 */
export function channelReach(channels: readonly ReachChannel[]): { live: boolean; text: string } {
  const parts = CHANNEL_DESCRIPTORS.flatMap((d) => {
    if (!('reach' in d)) return [];
    const n = channels.filter((c) => c.kind === d.kind && reaches(c)).length;
    return n ? [count(n, d.reach.one, d.reach.many)] : [];
  });
  if (!parts.length)
    return {
      live: false,
      // Names no kind: the tab below lists them all (a list here went stale when Viber came).
      text: 'No client can reach the bot yet: it talks only in the builder’s simulator. Create a chat widget and allow your website, or set up a messenger below, and clients can write to it.',
    };
  return { live: true, text: `Clients reach the bot through ${parts.join(' and ')}.` };
}

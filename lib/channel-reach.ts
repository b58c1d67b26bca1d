/** A channel as the Channels tab lists it (`listChannels`): what `channelReach` reads of it. */
export interface ReachChannel {
  kind: string;
  /** False for a tg bot the messenger stopped delivering to (its token was revoked, say). */
  receiving: boolean;
  widget: { settings: { allowedOrigins: readonly string[] } } | null;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Where clients can reach the bot, for the Channels tab's summary: every channel that takes
 * clients' messages counts (a tg bot that receives, a chat widget allowed on a site), so the
 * bot "talks only in the simulator" only when none does.
 */
export function channelReach(channels: readonly ReachChannel[]): { live: boolean; text: string } {
  const bots = channels.filter((c) => c.kind === 'tg' && c.receiving).length;
  const widgets = channels.filter(
    (c) => c.kind === 'widget' && c.widget?.settings.allowedOrigins.length,
  ).length;
  const numbers = channels.filter((c) => c.kind === 'chatapp' && c.receiving).length;
  const others = channels.filter((c) => !['tg', 'widget', 'chatapp'].includes(c.kind) && c.receiving).length;
  const parts = [
    bots ? count(bots, 'tg bot', 'tg bots') : '',
    numbers ? count(numbers, 'chat-app number', 'chat-app numbers') : '',
    widgets ? count(widgets, 'chat widget on your website', 'chat widgets on your websites') : '',
    others ? count(others, 'other channel', 'other channels') : '',
  ].filter(Boolean);
  if (!parts.length)
    return {
      live: false,
      text: 'No client can reach the bot yet: it talks only in the builder’s simulator. Connect a tg bot, a chat-app number, an Instagram account or a telephony gateway, or create a chat widget and allow your website, and clients can write to it.',
    };
  return { live: true, text: `Clients reach the bot through ${parts.join(' and ')}.` };
}

/**
 * The Channels tab's order (docs/channels.md): the kinds with a connected channel first, then the
 * chat widget (the one channel that needs no outside account), then the others, each in the
 * registry's order. `open` says which are shown whole; the rest are one line until asked.
 */
export function orderChannelKinds(
  kinds: readonly string[],
  connected: ReadonlySet<string>,
  noAccountKind = 'widget',
): { kind: string; open: boolean }[] {
  const rank = (kind: string) => (connected.has(kind) ? 0 : kind === noAccountKind ? 1 : 2);
  return [...kinds]
    .map((kind, index) => ({ kind, index }))
    .sort((a, b) => rank(a.kind) - rank(b.kind) || a.index - b.index)
    .map(({ kind }) => ({ kind, open: rank(kind) < 2 }));
}

/**
 * The buttons a client can still press below the conversation (docs/builder.md, "Buttons that
 * stay"): the simulator's row, the widget's reply buttons, the inbox's "Buttons now". A client
 * stays in a state block until a reply moves them on, so a message from any other block (a
 * not-a-state block's answer, a timer's reminder, "did not understand") or from an operator
 * leaves the state's buttons usable, as messengers keep a reply keyboard. Only a message from
 * the block the client is in now, without buttons of its own, takes them away.
 */
export const keepsButtons = (blockId: number | null, currentBlockId: number | null): boolean =>
  blockId !== currentBlockId;

/** Newest first: the message whose buttons are still offered, or null when none are. */
export function messageWithCurrentButtons<T extends { direction: string; blockId: number | null }>(
  messages: readonly T[],
  currentBlockId: number | null,
  hasButtons: (message: T) => boolean,
): T | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.direction !== 'out') continue;
    if (hasButtons(message)) return message;
    if (!keepsButtons(message.blockId, currentBlockId)) return null;
  }
  return null;
}

import { describe, expect, it } from 'vitest';
import { messageWithCurrentButtons } from './current-buttons';

type M = { id: number; direction: 'in' | 'out'; blockId: number | null; buttons: string[] };
const out = (id: number, blockId: number | null, buttons: string[] = []): M => ({
  id,
  direction: 'out',
  blockId,
  buttons,
});
const inbound = (id: number): M => ({ id, direction: 'in', blockId: null, buttons: [] });
const current = (messages: M[], block: number | null) =>
  messageWithCurrentButtons(messages, block, (m) => m.buttons.length > 0)?.id ?? null;

describe('messageWithCurrentButtons', () => {
  const menu = out(1, 2, ['Weather', 'Timer', 'Help']);

  it("keeps the state's buttons under a not-a-state block's answer, a reminder and an operator's reply", () => {
    expect(current([menu], 2)).toBe(1);
    expect(current([menu, inbound(2), out(3, 7)], 2)).toBe(1);
    expect(current([menu, inbound(2), out(3, 7), out(4, 8), out(5, null)], 2)).toBe(1);
  });

  it('a newer message with buttons of its own offers those', () => {
    expect(current([menu, inbound(2), out(3, 7, ['Back'])], 2)).toBe(3);
  });

  it('takes them away once the client is in a block whose message has none', () => {
    expect(current([menu, inbound(2), out(3, 5)], 5)).toBeNull();
    expect(current([menu, inbound(2), out(3, 5), out(4, 7)], 5)).toBeNull();
    expect(current([], 2)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { defaultArrowKind } from './arrow-defaults';
import { type Arrow, type Block, type BlockInput, blockSchema } from './bot-schema';

const block = (input: Omit<BlockInput, 'id'>): Block => blockSchema.parse({ id: 1, ...input });
const shownAsButton = {
  id: 1,
  from: 1,
  to: 2,
  kind: 'condition',
  condition: { alternatives: 'Prices', match: 'exact', expression: '', ignore: '' },
  showAsButton: true,
  cancelOtherTimers: false,
  cancelIfLeft: true,
} satisfies Arrow;

describe('the default kind of a new arrow', () => {
  it('continues out of blocks the client never stands in', () => {
    expect(defaultArrowKind(block({ kind: 'not_state', text: 'Hello!' }), [])).toBe('continue');
    expect(defaultArrowKind(block({ kind: 'not_state_condition' }), [])).toBe('continue');
    // Buttons do not make it wait: replies are never routed from a block the client is not in.
    expect(defaultArrowKind(block({ kind: 'not_state', buttons: [{ text: 'Ok' }] }), [])).toBe('continue');
  });

  it('waits for any reply out of a state block, with or without buttons', () => {
    expect(defaultArrowKind(block({ kind: 'state', text: 'Your e-mail?' }), [])).toBe('unconditional');
    expect(defaultArrowKind(block({ kind: 'state', buttons: [{ text: 'Yes' }] }), [])).toBe('unconditional');
  });

  it('out of start, close-deal and data-transfer blocks: waits when the block shows buttons, else continues', () => {
    for (const kind of ['start', 'close_deal', 'data_transfer'] as const) {
      expect(defaultArrowKind(block({ kind, text: 'Welcome!' }), [])).toBe('continue');
      expect(defaultArrowKind(block({ kind, buttons: [{ text: 'Menu' }] }), [])).toBe('unconditional');
      expect(
        defaultArrowKind(block({ kind, buttons: { hint: '1 for menu', buttons: [{ text: '1' }] } }), []),
      ).toBe('unconditional');
      expect(defaultArrowKind(block({ kind }), [shownAsButton])).toBe('unconditional');
      expect(defaultArrowKind(block({ kind }), [{ ...shownAsButton, showAsButton: false }])).toBe('continue');
    }
  });
});

import type { Arrow, Block } from '../bot-schema';

/** A state block as the schema stores it (every default present), for tests of drafts. */
export const stateBlock = (id: number, extra: Partial<Block> = {}): Block => ({
  id,
  kind: 'state',
  name: `Block ${id}`,
  position: { x: id * 100, y: 0 },
  text: `Text ${id}`,
  attachments: [],
  formula: '',
  ...extra,
});

/** An unconditional arrow as the schema stores it (every default present). */
export const plainArrow = (id: number, from: number, to: number): Arrow => ({
  id,
  from,
  to,
  kind: 'unconditional',
  cancelOtherTimers: false,
  cancelIfLeft: true,
  showAsButton: false,
});

import { describe, expect, it } from 'vitest';
import { leftBlockOf } from './timer-status';

describe('a pending timer in the simulator', () => {
  it('is cancelled once the client left its block, when it cancels on leaving', () => {
    expect(leftBlockOf({ blockId: 1, payload: { cancelIfLeft: true } }, 2)).toBe(1);
    expect(leftBlockOf({ blockId: 1, payload: { cancelIfLeft: true } }, null)).toBe(1);
  });

  it('is pending while the client is still there, or when it fires wherever the client is', () => {
    expect(leftBlockOf({ blockId: 1, payload: { cancelIfLeft: true } }, 1)).toBeNull();
    expect(leftBlockOf({ blockId: 1, payload: { cancelIfLeft: false } }, 2)).toBeNull();
    expect(leftBlockOf({ blockId: 1, payload: null }, 2)).toBeNull();
    expect(leftBlockOf({ blockId: null, payload: { cancelIfLeft: true } }, 2)).toBeNull();
  });
});

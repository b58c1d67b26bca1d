import type { Value } from './values';

/**
 * What the work and the new values of one run cost, charged against its limits as they happen
 * (Run implements it). Operations whose work depends on the size of their values charge it
 * here, so a small formula over a large value is stopped as soon as a limit is passed.
 */
export interface Meter {
  /** Steps of work; past the step limit (or the run's time), a RunLimitError. */
  work(steps: number): void;
  /** Bytes of new values; past the run's memory budget, a RunLimitError. */
  alloc(bytes: number): void;
}

/** Characters read or written per step: native work on text is far cheaper per item than ours. */
export const CHARS_PER_STEP = 64;

/**
 * The bytes a value just built takes itself, roughly (see LIMITS.memoryBytes); the values it
 * holds were counted when they were built.
 */
export function bytesOf(v: Value): number {
  if (typeof v === 'string') return 2 * v.length;
  if (Array.isArray(v)) return 16 + 8 * v.length;
  if (v instanceof Map) return 64 + 40 * v.size;
  return 0;
}

/** Limits of one formula and one run; past one, a clear error, never a crash or a hang. */
export const LIMITS = {
  /** Characters of source. */
  sourceLength: 20_000,
  /** Brackets and operators nested inside each other. */
  depth: 100,
  /** Operations evaluated in one run. */
  steps: 200_000,
  /** Characters of any text value. */
  stringLength: 100_000,
  /** Items of a list or dict. */
  listLength: 10_000,
  /** Milliseconds one run may take, not counting in-flow calls that wait for the network. */
  wallTimeMs: 2_000,
  /** In-flow function calls in one run. */
  hostCalls: 50,
} as const;

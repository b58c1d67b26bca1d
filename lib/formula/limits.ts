/** Limits of one formula and one run; past one, a clear error, never a crash or a hang. */
export const LIMITS = {
  /** Characters of source. */
  sourceLength: 20_000,
  /** Brackets and operators nested inside each other. */
  depth: 100,
  /**
   * Operators one inside another in one statement, a chain like `a + b + c` counting one level
   * per operator: deeper, compiling and evaluating would run out of stack.
   */
  chainDepth: 500,
  /**
   * Operations evaluated in one run; an operation on lists, dicts or long texts also counts a
   * step per item it visits (and per 64 characters it reads or writes).
   */
  steps: 200_000,
  /**
   * Characters of any text value, and of a list or dict as text (stored, str(), to_json(),
   * given out): a list holding one list many times counts it every time.
   */
  stringLength: 100_000,
  /** Items of a list or dict. */
  listLength: 10_000,
  /**
   * Bytes of texts, lists and dicts one run builds (roughly: 2 per character, 8 per list item,
   * 40 per dict entry), kept or not.
   */
  memoryBytes: 32 * 1024 * 1024,
  /** Milliseconds one run may take, not counting in-flow calls that wait for the network. */
  wallTimeMs: 2_000,
  /** In-flow function calls in one run. */
  hostCalls: 50,
} as const;

/** A variable value may hold at most this many characters (bot-semantics §3); rendered text is capped to it. */
export const MAX_VALUE_LENGTH = 100_000;

/** A variable name may hold at most this many characters (bot-semantics §3). */
export const MAX_NAME_LENGTH = 500;

/** `#{a#{b#{c}}}` nests 3 deep; deeper `#{` are kept as literal text so recursion stays bounded. */
export const MAX_NESTING_DEPTH = 16;

/** Expression placeholders evaluated per render; each runs the formula interpreter. */
export const MAX_EXPRESSIONS = 1_000;

/**
 * Same rule as the bot schema's variable names: ASCII letters, digits, `_` and `.`, not starting
 * with a digit. Dots allow scopes such as `client.phone` and `project.x`.
 */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export function isVariableName(text: string): boolean {
  return text.length <= MAX_NAME_LENGTH && VARIABLE_NAME.test(text);
}

/** API keys never reach a log line: `/api/bb_abcdef…/x` keeps only a short prefix. */
export function redactKey(key: string): string {
  return key.length <= 6 ? '***' : `${key.slice(0, 6)}…`;
}

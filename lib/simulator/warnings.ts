/**
 * The simulator's inline warnings: engine log entries a designer should see in the chat, where
 * they happened, with what went wrong and how to fix it. Derived from the log (one source of
 * truth) and shown only in the simulator; no channel ever sends them to a client.
 */

/** The log kinds that can warn; the simulator reads only these. */
export const WARNING_KINDS = ['request', 'formula_error', 'unknown_variable', 'message_withheld'] as const;

export interface Warning {
  text: string;
  fix: string;
}

type Data = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function requestOf(d: Data): string {
  return d.arrowId !== undefined
    ? `arrow #${d.arrowId}'s condition request`
    : `block #${d.blockId}'s request`;
}

function requestWarning(d: Data): Warning | null {
  const errors = ((d.errors as unknown[] | undefined) ?? []).map(str);
  const req = (d.request ?? {}) as { method?: string; url?: string };
  const what = `${requestOf(d)} (${req.method ?? ''} ${req.url ?? ''})`;
  if (d.status === undefined || d.status === null)
    return {
      text: `The request was not sent: ${what}: ${errors.join('; ')}`,
      fix: 'Check the URL, the headers and the parameters of the request.',
    };
  if (Number(d.status) >= 400)
    return {
      text: `The request failed with HTTP ${d.status}: ${what}.${errors.length ? ` ${errors.join('; ')}` : ''}`,
      fix: '#{custom_answer} holds the error reply (open the request in the log): check the URL, the method and the parameters.',
    };
  if (!errors.length) return null;
  return {
    text: `Stored values not saved from the reply of ${what}: ${errors.join('; ')}`,
    fix: 'Check the path in Stored values against the reply (open the request in the log): the variable stays as it was.',
  };
}

/** The warning a log entry gives, or null when it gives none. */
export function warningOf(kind: string, raw: unknown): Warning | null {
  const d = (raw ?? {}) as Data;
  switch (kind) {
    case 'unknown_variable':
      return {
        text: `#{${str(d.name)}} is not set, so it was left empty.`,
        fix: 'Set it before this point (a formula, a stored value, data collection) or check the spelling of the name.',
      };
    case 'formula_error':
      if (d.expression !== undefined)
        return {
          text: `#{${str(d.expression)}} failed, so it was left empty: ${str(d.message)}`,
          fix: 'Fix the expression in the text.',
        };
      return {
        text: `Formula error in block #${d.blockId}${d.line ? `, line ${d.line}, column ${d.column}` : ''}: ${str(d.message)}`,
        fix: "The other lines ran; fix this one in the block's formula.",
      };
    case 'request':
      return requestWarning(d);
    case 'message_withheld':
      return {
        text: `Block #${d.blockId}'s message was not sent: ${str(d.reason)}.`,
        fix: 'See the formula error above. On the free plan, choose the business or AI plan in Settings, Plan.',
      };
    default:
      return null;
  }
}

interface Placed {
  createdAt: Date;
}

/**
 * Puts each warning in the chat where it happened. An event stores its messages and log entries
 * with one time: its incoming message first, then its outgoing ones in order; a warning follows
 * the `sentBefore` outgoing messages its event had sent when it happened.
 */
export function placeWarnings<
  M extends Placed & { direction: 'in' | 'out' },
  W extends Placed & { sentBefore: number },
>(messages: readonly M[], warnings: readonly W[]): (M | W)[] {
  const sentInEvent = new Map<number, number>();
  const ranked: { item: M | W; at: number; rank: number }[] = messages.map((m) => {
    const at = m.createdAt.getTime();
    if (m.direction === 'in') return { item: m, at, rank: 0 };
    const sent = (sentInEvent.get(at) ?? 0) + 1;
    sentInEvent.set(at, sent);
    return { item: m, at, rank: sent };
  });
  for (const w of warnings) ranked.push({ item: w, at: w.createdAt.getTime(), rank: w.sentBefore + 0.5 });
  // Stable: messages keep their order, and warnings of one place theirs.
  return ranked.sort((a, b) => a.at - b.at || a.rank - b.rank).map((r) => r.item);
}

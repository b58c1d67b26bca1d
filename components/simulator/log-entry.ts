/**
 * The simulator log in words: one line per engine log entry (what happened, where), a tone for
 * its colour, and the details a designer opens to debug (a request and its reply, the variables
 * a submission carried, a function's arguments). Pure, so it is unit-tested.
 */
export type LogTone = 'info' | 'error' | 'timer' | 'request' | 'submission';

export interface LogDetail {
  label: string;
  text: string;
}

export interface DescribedLogEntry {
  title: string;
  tone: LogTone;
  details: LogDetail[];
}

type Data = Record<string, unknown>;

const FROM = ['client', 'API', 'CRM', 'callback', '', 'telephony'];
const VIA: Record<string, string> = {
  start: 'a start trigger',
  entry: 'the entry for a new client',
  arrow: 'an arrow',
  quick_reply: 'a quick reply',
  timer: 'a timer',
  continue: 'a continue arrow',
  'message()': 'message()',
  api: 'the API or a scheduled message',
  ai_choice: "the AI's choice of arrow",
  ai_fallback: "the AI's fallback",
  input_exit: 'its exit arrow, after wrong answers to an input',
};

const str = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const quote = (v: unknown) => `"${str(v ?? '')}"`;
const where = (d: Data) =>
  d.blockId !== undefined && d.blockId !== null
    ? ` in block #${d.blockId}`
    : d.arrowId !== undefined && d.arrowId !== null
      ? ` on arrow #${d.arrowId}`
      : '';
const pretty = (v: unknown) => (typeof v === 'string' ? prettyText(v) : JSON.stringify(v, null, 2));

/** A JSON reply shown indented; any other text as it is. */
function prettyText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const variablesText = (vars: unknown) =>
  Object.entries((vars ?? {}) as Data)
    .map(([k, v]) => `${k} = ${str(v)}`)
    .join('\n');

const time = (iso: unknown) => {
  const d = new Date(String(iso));
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
};

export function describeLogEntry(kind: string, raw: unknown): DescribedLogEntry {
  const d = (raw ?? {}) as Data;
  const info = (title: string, details: LogDetail[] = []): DescribedLogEntry => ({
    title,
    tone: 'info',
    details,
  });
  switch (kind) {
    case 'event': {
      const from = FROM[Number(d.from)] || 'client';
      return info(`Message from the ${from}: ${quote(d.text)}`);
    }
    case 'input_invalid':
      return info(
        d.exitArrowId
          ? `Wrong answer ${d.attempts} to the ${d.type} input of block #${d.blockId}: its exit arrow #${d.exitArrowId} is followed`
          : `Wrong answer ${d.attempts} to the ${d.type} input of block #${d.blockId}: asked again`,
      );
    case 'no_match':
      return info(
        `Nothing matched ${quote(d.text)}${d.blockId ? ` in block #${d.blockId}` : ''}: no reply, the message is stored`,
      );
    case 'block':
      return info(
        `Entered block #${d.blockId}${d.name ? ` "${d.name}"` : ''} (${d.kind})${
          d.via ? ` through ${VIA[String(d.via)] ?? d.via}` : ''
        }`,
      );
    case 'formula': {
      const set = variablesText(d.set);
      return info(`Formula of block #${d.blockId} ran`, set ? [{ label: 'Variables set', text: set }] : []);
    }
    case 'formula_error': {
      const at = d.line ? ` line ${d.line}, column ${d.column}` : '';
      const details = d.expression ? [{ label: 'Expression', text: str(d.expression) }] : [];
      return {
        title: `Formula error${where(d)}${at}: ${str(d.message)}`,
        tone: 'error',
        details,
      };
    }
    case 'request': {
      const req = (d.request ?? {}) as { method?: string; url?: string; headers?: Data; body?: string };
      const errors = (d.errors as string[] | undefined) ?? [];
      const stored = (d.stored as { variable: string; value: string }[] | undefined) ?? [];
      const details: LogDetail[] = [
        {
          label: 'Request',
          text: [
            `${req.method ?? ''} ${req.url ?? ''}`,
            ...Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${str(v)}`),
            ...(req.body ? ['', prettyText(req.body)] : []),
          ].join('\n'),
        },
      ];
      if (d.status !== undefined || d.reply) details.push({ label: 'Reply', text: pretty(d.reply ?? '') });
      if (stored.length)
        details.push({
          label: 'Stored values',
          text: stored.map((s) => `${s.variable} = ${s.value}`).join('\n'),
        });
      if (errors.length) details.push({ label: 'Errors', text: errors.join('\n') });
      const outcome = d.status !== undefined ? `HTTP ${d.status}` : 'not sent';
      return {
        title: `${d.arrowId !== undefined ? 'Condition' : 'Block'} request${where(d)}: ${req.method ?? ''} ${req.url ?? ''} → ${outcome}`,
        tone: errors.length ? 'error' : 'request',
        details,
      };
    }
    case 'timer_scheduled':
      return {
        title:
          d.kind === 'message'
            ? `Message to client ${d.clientId} scheduled for ${time(d.runAt)}`
            : `Timer of arrow #${d.arrowId} scheduled for ${time(d.runAt)}`,
        tone: 'timer',
        details: [],
      };
    case 'timer_fired':
      return {
        title: `Timer of arrow #${d.arrowId} fired${d.immediate ? ' at once (no delay)' : ''}`,
        tone: 'timer',
        details: [],
      };
    case 'timer_cancelled':
      return {
        title: `Timer${d.arrowId !== undefined ? ` of arrow #${d.arrowId}` : 's'} cancelled: ${str(d.reason)}`,
        tone: 'timer',
        details: [],
      };
    case 'scheduled_cancelled':
      return {
        title: `Delayed send of block #${d.blockId} cancelled: ${str(d.reason)}`,
        tone: 'timer',
        details: [],
      };
    case 'submission':
      return {
        title: `Deal submitted from block #${d.blockId}${d.kept ? ' (variables kept)' : ' (variables discarded)'}`,
        tone: 'submission',
        details: [{ label: 'Variables', text: variablesText(d.variables) || '(none)' }],
      };
    case 'function':
      return info(`${str(d.name)}() called`, [
        { label: 'Arguments', text: JSON.stringify(d.args ?? []) },
        { label: 'Result', text: pretty(d.result ?? null) },
      ]);
    case 'unknown_variable':
      return { title: `#{${str(d.name)}} is not set: it was left empty`, tone: 'error', details: [] };
    case 'message_withheld':
      return {
        title: `Block #${d.blockId}'s message not sent: ${str(d.reason)}`,
        tone: 'error',
        details: [],
      };
    case 'variable_error':
      return { title: `Variable ${quote(d.name)} not saved: ${str(d.message)}`, tone: 'error', details: [] };
    case 'ai': {
      const who = d.assistant
        ? `Assistant ${quote(d.assistant)}`
        : d.choice
          ? `AI choice of arrow${where(d)}`
          : `AI step${where(d)}`;
      return {
        title: `${who} answered: ${str(d.provider)}, ${str(d.model)}, ${d.inputTokens} + ${d.outputTokens} tokens${d.estimatedTokens ? ' (estimated: the server reported none)' : ''} in ${d.ms} ms${typeof d.attempts === 'number' ? ` (${d.attempts} attempts)` : ''}`,
        tone: 'request',
        details: [
          ...(d.learned ? [{ label: 'Learnt what the model takes', text: str(d.learned) }] : []),
          { label: 'Answer', text: pretty(d.answer ?? '') },
        ],
      };
    }
    case 'ai_error':
      return {
        title: `${d.assistantId !== undefined ? 'Assistant' : `AI${where(d)}`} did not answer (${str(d.reason)}): ${str(d.message)}`,
        tone: 'error',
        details: [],
      };
    case 'knowledge': {
      const chunks = (d.chunks as { chunkId: number; title: string; score: number }[] | undefined) ?? [];
      return info(
        chunks.length
          ? `Knowledge base: ${chunks.length} excerpt${chunks.length === 1 ? '' : 's'} given to the model`
          : 'Knowledge base: nothing relevant found',
        chunks.length
          ? [
              {
                label: 'Cited',
                text: chunks
                  .map((c, i) => `[${i + 1}] ${c.title} (chunk ${c.chunkId}, score ${c.score.toFixed(3)})`)
                  .join('\n'),
              },
            ]
          : [],
      );
    }
    case 'assistant_handoff':
      return info(
        `The assistant handed the conversation to an operator${d.reason ? ` (${str(d.reason)})` : ''}: the bot is paused for this client`,
      );
    case 'loop_guard':
    case 'error':
      return { title: `${str(d.message)}${where(d)}`, tone: 'error', details: [] };
    default:
      return info(`${kind}: ${JSON.stringify(d)}`);
  }
}

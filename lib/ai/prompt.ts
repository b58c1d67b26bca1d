import type { AiField } from './block-ai';

/**
 * What is sent to the model, built from the block's or the assistant's settings, the
 * conversation and the knowledge base (docs/ai.md). Pure: the engine reads, this assembles.
 * Secrets never reach here: templates leave `#{secret.NAME}` as written (docs/secrets.md).
 */

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A stored message of the conversation, oldest first. */
export interface ConversationMessage {
  direction: 'in' | 'out';
  text: string;
}

export interface KnowledgeExcerpt {
  /** Shown to the model as [n]; the log cites it by chunk id. */
  chunkId: number;
  title: string;
  text: string;
}

/** The last `limit` messages with text as chat turns; an operator's or the bot's are the assistant's. */
export function historyTurns(messages: readonly ConversationMessage[], limit: number): ChatTurn[] {
  if (limit <= 0) return [];
  return messages
    .filter((m) => m.text.trim())
    .slice(-limit)
    .map((m) => ({ role: m.direction === 'in' ? 'user' : 'assistant', content: m.text }));
}

/**
 * Turns as every chat template takes them: from the client's first (a strict template, vLLM's or
 * llama.cpp's with Mistral, Llama 2 or Gemma, refuses a conversation that starts with the
 * assistant), one role then the other, consecutive turns of one role joined into one (the
 * client's message and the block's prompt after it, two bot messages in a row). The system
 * prompt goes first, apart (provider.ts).
 */
export function alternatingTurns(turns: readonly ChatTurn[]): ChatTurn[] {
  const out: ChatTurn[] = [];
  for (const turn of turns) {
    if (!out.length && turn.role !== 'user') continue;
    const last = out.at(-1);
    if (last?.role === turn.role) last.content = `${last.content}\n\n${turn.content}`;
    else out.push({ ...turn });
  }
  return out;
}

/** The knowledge base's excerpts as a block of the system prompt the model can cite. */
export function knowledgeSection(excerpts: readonly KnowledgeExcerpt[]): string {
  if (!excerpts.length) return '';
  const body = excerpts.map((e, i) => `[${i + 1}] ${e.title}\n${e.text}`).join('\n\n');
  return `Answer from these excerpts of the business's documents when they hold the answer. If they do not, say you do not know rather than guessing.\n\n${body}`;
}

/** Joins the non-empty parts of a system prompt. */
export const joinSystem = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');

/** The JSON schema a structured answer must follow: one property per field, all required. */
export function fieldsJsonSchema(fields: readonly AiField[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((f) => [
        f.variable,
        { type: f.type, ...(f.description ? { description: f.description } : {}) },
      ]),
    ),
    required: fields.map((f) => f.variable),
    additionalProperties: false,
  };
}

/**
 * A structured answer's values as variables hold them (text); a field the answer left out or
 * gave in another type is reported, not guessed.
 */
export function fieldValues(
  fields: readonly AiField[],
  answer: unknown,
): { values: { variable: string; value: string }[]; problems: string[] } {
  const values: { variable: string; value: string }[] = [];
  const problems: string[] = [];
  if (!answer || typeof answer !== 'object' || Array.isArray(answer))
    return { values, problems: ['the answer is not a JSON object'] };
  const record = answer as Record<string, unknown>;
  for (const field of fields) {
    const value = record[field.variable];
    if (value === undefined || value === null) problems.push(`${field.variable} is missing`);
    else if (typeof value !== field.type) problems.push(`${field.variable} is not a ${field.type}`);
    else values.push({ variable: field.variable, value: String(value) });
  }
  return { values, problems };
}

/** One arrow the model may choose: its number in the list, and what it is for. */
export interface ArrowOption {
  arrowId: number;
  description: string;
}

/** The instructions and schema of the AI choice of arrow: the model answers an option's number, or 0. */
export function arrowChoicePrompt(options: readonly ArrowOption[]): {
  system: string;
  schema: Record<string, unknown>;
} {
  const list = options.map((o, i) => `${i + 1}. ${o.description}`).join('\n');
  return {
    system: `Classify the client's last message. The options are:\n${list}\n0. None of them fits.\nAnswer with the number of the option that fits best, or 0.`,
    schema: {
      type: 'object',
      properties: { option: { type: 'integer', minimum: 0, maximum: options.length } },
      required: ['option'],
      additionalProperties: false,
    },
  };
}

/** The arrow the model chose, or null for none or an answer out of range. */
export function chosenArrow(options: readonly ArrowOption[], answer: unknown): number | null {
  const option = (answer as { option?: unknown } | null)?.option;
  if (typeof option !== 'number' || !Number.isInteger(option) || option < 1 || option > options.length)
    return null;
  return options[option - 1].arrowId;
}

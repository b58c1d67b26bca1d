import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { phoneDigits } from '../channels/phone-numbers';
import type { BlockInputCheck, InputType } from './bot-schema';

/** A reply checked against a block's input: the value to store, normalised, or a refusal. */
export type InputVerdict = { ok: true; value: string } | { ok: false };

const email = z.email();
const refused: InputVerdict = { ok: false };

/** The choices of a choice input, in order, without empty ones. */
export const inputChoices = (input: Pick<BlockInputCheck, 'choices'>): string[] =>
  input.choices
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);

function checkDate(text: string): InputVerdict {
  const dotted = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(text);
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const [d, m, y] = dotted
    ? [dotted[1], dotted[2], dotted[3]].map(Number)
    : iso
      ? [iso[3], iso[2], iso[1]].map(Number)
      : [];
  if (y === undefined) return refused;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return refused;
  // The platform's date form (bot-semantics §3: current_date), which its date functions read.
  return { ok: true, value: `${String(d).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}` };
}

/**
 * Checks a reply: an e-mail address (zod's check), a phone number with its country code
 * (libphonenumber-js, stored `+` and digits), a number (`,` or `.` as the decimal mark, spaces
 * between thousands; stored with `.`), a date (`31.12.2026`, `31/12/2026` or `2026-12-31`; stored
 * `dd.mm.yyyy`) or one of the choices (any case, or its number in the list; stored as listed).
 */
export function checkInput(input: Pick<BlockInputCheck, 'type' | 'choices'>, reply: string): InputVerdict {
  const text = reply.trim();
  if (!text) return refused;
  switch (input.type) {
    case 'email':
      return email.safeParse(text).success ? { ok: true, value: text } : refused;
    case 'phone': {
      if (!/^[+\d][\d\s().-]*$/.test(text)) return refused;
      const digits = phoneDigits(text);
      const parsed = parsePhoneNumberFromString(`+${digits}`);
      return parsed?.isValid() ? { ok: true, value: parsed.number } : refused;
    }
    case 'number': {
      const bare = text.replace(/[\s\u00a0']/g, '');
      return /^[+-]?\d+([.,]\d+)?$/.test(bare)
        ? { ok: true, value: bare.replace(',', '.').replace(/^\+/, '') }
        : refused;
    }
    case 'date':
      return checkDate(text);
    case 'choice': {
      const choices = inputChoices(input);
      const byNumber = /^\d+$/.test(text) ? choices[Number(text) - 1] : undefined;
      const chosen = byNumber ?? choices.find((c) => c.toLowerCase() === text.toLowerCase());
      return chosen ? { ok: true, value: chosen } : refused;
    }
  }
}

const DEFAULT_RETRY: Record<Exclude<InputType, 'choice'>, string> = {
  email: 'That does not look like an e-mail address. Please write it like ann@example.com.',
  phone:
    'That does not look like a phone number. Please write it with the country code, like +44 20 7946 0958.',
  number: 'Please answer with a number, like 42 or 3.5.',
  date: 'Please answer with a date, like 31.12.2026.',
};

/** What a failed reply gets: the block's own re-ask text, or one that says what is expected. */
export const retryText = (input: BlockInputCheck): string =>
  input.retryText.trim() ||
  (input.type === 'choice'
    ? `Please choose one of: ${inputChoices(input).join(', ')}.`
    : DEFAULT_RETRY[input.type]);

/** The variable that counts a client's wrong answers to an input (`email` → `email_attempts`). */
export const attemptsVariable = (input: Pick<BlockInputCheck, 'variable'>): string =>
  `${input.variable}_attempts`;

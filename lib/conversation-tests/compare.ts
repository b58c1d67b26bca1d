import type { ActualMessage, Difference, StepActual } from './results';
import type { ExpectedMessage, ExpectedText, StepExpectation, VariableCheck } from './test-case';

/**
 * Compares what the bot did in a step with what the test expects, part by part in a fixed order
 * (the messages, then the block reached, then the variables), and gives the first difference:
 * what the Tests panel shows expected beside actual. What the test leaves out is not compared.
 */

/** Whether a text passes an expected text (both trimmed; a pattern is a JavaScript regular expression). */
export function textMatches(expected: ExpectedText, actual: string): boolean {
  const text = actual.trim();
  if (expected.match === 'exact') return text === expected.value.trim();
  if (expected.match === 'contains') return text.includes(expected.value.trim());
  return new RegExp(expected.value, 'u').test(text);
}

const describeText = (expected: ExpectedText): string =>
  expected.match === 'exact'
    ? expected.value
    : expected.match === 'contains'
      ? `containing "${expected.value}"`
      : `matching /${expected.value}/`;

const quote = (list: readonly string[]) => (list.length ? list.map((b) => `[${b}]`).join(' ') : 'none');

function messageDifference(
  expected: ExpectedMessage,
  actual: ActualMessage,
  at: number,
): Omit<Difference, 'blockId'> | null {
  const field = `messages[${at}]`;
  const which = `message ${at + 1}`;
  if (expected.text && !textMatches(expected.text, actual.text))
    return {
      field: `${field}.text`,
      expected: describeText(expected.text),
      actual: actual.text,
      message: `The bot's ${which} says something else.`,
    };
  if (expected.buttons && expected.buttons.join('\u0000') !== actual.buttons.join('\u0000'))
    return {
      field: `${field}.buttons`,
      expected: quote(expected.buttons),
      actual: quote(actual.buttons),
      message: `The bot's ${which} has other buttons.`,
    };
  if (expected.attachments && expected.attachments.join(',') !== actual.attachments.join(','))
    return {
      field: `${field}.attachments`,
      expected: expected.attachments.join(', ') || 'none',
      actual: actual.attachments.join(', ') || 'none',
      message: `The bot's ${which} has other attachments.`,
    };
  return null;
}

/** A variable check's verdict: true, or why not; the formula reads `value` (the checked variable's) and every other variable by name. */
export type FormulaVerdict = (
  formula: string,
  variables: Record<string, string>,
  value: string | undefined,
) => Promise<true | string>;

export async function compareStep(
  expect: StepExpectation,
  actual: StepActual,
  formulaHolds: FormulaVerdict,
): Promise<Difference | null> {
  if (expect.messages) {
    const { messages } = expect;
    for (let i = 0; i < Math.min(messages.length, actual.messages.length); i++) {
      const found = messageDifference(messages[i], actual.messages[i], i);
      if (found) return { ...found, blockId: actual.messages[i].blockId };
    }
    if (messages.length !== actual.messages.length) {
      const extra = actual.messages[messages.length];
      return {
        field: 'messages',
        expected: `${messages.length} message${messages.length === 1 ? '' : 's'}`,
        actual: `${actual.messages.length}${extra ? `, the next: "${extra.text}"` : ''}`,
        message:
          messages.length > actual.messages.length
            ? 'The bot sent fewer messages than expected.'
            : 'The bot sent more messages than expected.',
        blockId: extra?.blockId ?? actual.block,
      };
    }
  }
  if (expect.block !== undefined && expect.block !== actual.block)
    return {
      field: 'block',
      expected: expect.block === null ? 'no block' : `block ${expect.block}`,
      actual: actual.block === null ? 'no block' : `block ${actual.block}`,
      message: 'The client ended up in another block.',
      blockId: actual.block ?? expect.block,
    };
  for (const check of expect.variables) {
    const found = await variableDifference(check, actual.variables, formulaHolds);
    if (found) return { ...found, blockId: actual.block };
  }
  return null;
}

async function variableDifference(
  check: VariableCheck,
  variables: Record<string, string>,
  formulaHolds: FormulaVerdict,
): Promise<Omit<Difference, 'blockId'> | null> {
  const value = variables[check.name];
  const actual = value === undefined ? '(not set)' : value;
  if ('equals' in check) {
    if ((value ?? '') === check.equals) return null;
    return {
      field: `variables.${check.name}`,
      expected: check.equals,
      actual,
      message: `${check.name} holds another value.`,
    };
  }
  const verdict = await formulaHolds(check.formula, variables, value);
  if (verdict === true) return null;
  return {
    field: `variables.${check.name}`,
    expected: check.formula,
    actual,
    message: `${check.name} does not make the formula true${verdict ? `: ${verdict}` : '.'}`,
  };
}

import { describe, expect, it } from 'vitest';
import { compareStep, textMatches } from './compare';
import type { StepActual } from './results';

const actual = (over: Partial<StepActual> = {}): StepActual => ({
  messages: [
    { text: 'Hello Ann', buttons: ['Yes', 'No'], attachments: [], blockId: 4 },
    { text: 'Pick a date', buttons: [], attachments: ['image'], blockId: 5 },
  ],
  block: 5,
  variables: { 'client.email': 'ann@example.com', total: '42' },
  ...over,
});
const never = async () => 'not asked' as const;

describe('comparing a step', () => {
  it('matches texts exactly, by part, or by pattern, trimmed', () => {
    expect(textMatches({ match: 'exact', value: ' Hello Ann ' }, 'Hello Ann')).toBe(true);
    expect(textMatches({ match: 'exact', value: 'Hello' }, 'Hello Ann')).toBe(false);
    expect(textMatches({ match: 'contains', value: 'Ann' }, 'Hello Ann')).toBe(true);
    expect(textMatches({ match: 'pattern', value: '^Hello \\p{Lu}\\w+$' }, 'Hello Ann')).toBe(true);
    expect(textMatches({ match: 'pattern', value: '^\\d+$' }, 'Hello Ann')).toBe(false);
  });

  it('passes when everything it asserts holds, and ignores what it leaves out', async () => {
    expect(await compareStep({ variables: [] }, actual(), never)).toBeNull();
    expect(
      await compareStep(
        {
          messages: [{ buttons: ['Yes', 'No'] }, { attachments: ['image'] }],
          block: 5,
          variables: [{ name: 'total', equals: '42' }],
        },
        actual(),
        never,
      ),
    ).toBeNull();
  });

  it('gives the first difference, expected beside actual, with the block that sent the message', async () => {
    expect(
      await compareStep(
        { messages: [{ text: { match: 'exact', value: 'Hi Ann' } }, {}], variables: [] },
        actual(),
        never,
      ),
    ).toEqual({
      field: 'messages[0].text',
      expected: 'Hi Ann',
      actual: 'Hello Ann',
      message: "The bot's message 1 says something else.",
      blockId: 4,
    });
    expect(
      await compareStep({ messages: [{ buttons: ['Yes'] }, {}], variables: [] }, actual(), never),
    ).toMatchObject({
      field: 'messages[0].buttons',
      expected: '[Yes]',
      actual: '[Yes] [No]',
    });
  });

  it('counts the messages: one more or fewer is a difference naming the next one', async () => {
    expect(await compareStep({ messages: [{}], variables: [] }, actual(), never)).toMatchObject({
      field: 'messages',
      expected: '1 message',
      actual: '2, the next: "Pick a date"',
      message: 'The bot sent more messages than expected.',
      blockId: 5,
    });
    expect(await compareStep({ messages: [], variables: [] }, actual({ messages: [] }), never)).toBeNull();
    expect(await compareStep({ messages: [{}, {}, {}], variables: [] }, actual(), never)).toMatchObject({
      message: 'The bot sent fewer messages than expected.',
    });
  });

  it('checks the block and the variables, by value or by formula', async () => {
    expect(await compareStep({ block: 4, variables: [] }, actual(), never)).toMatchObject({
      field: 'block',
      expected: 'block 4',
      actual: 'block 5',
    });
    expect(await compareStep({ block: null, variables: [] }, actual({ block: null }), never)).toBeNull();
    expect(
      await compareStep({ variables: [{ name: 'client.phone', equals: '+49' }] }, actual(), never),
    ).toMatchObject({ field: 'variables.client.phone', expected: '+49', actual: '(not set)' });
    const asked: string[] = [];
    const verdict = async (formula: string) => {
      asked.push(formula);
      return formula.includes('> 40') ? (true as const) : 'it is 42';
    };
    expect(
      await compareStep({ variables: [{ name: 'total', formula: 'int(total) > 40' }] }, actual(), verdict),
    ).toBeNull();
    expect(
      await compareStep({ variables: [{ name: 'total', formula: 'int(total) < 40' }] }, actual(), verdict),
    ).toMatchObject({
      message: 'total does not make the formula true: it is 42',
      expected: 'int(total) < 40',
    });
    expect(asked).toEqual(['int(total) > 40', 'int(total) < 40']);
  });
});

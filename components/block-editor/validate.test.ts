import { describe, expect, it } from 'vitest';
import { arrowSchema, blockSchema } from '@/lib/schema';
import {
  errorsUnder,
  regexIssue,
  requestJsonIssues,
  timerAtIssue,
  validateArrow,
  validateBlock,
} from './validate';

const block = blockSchema.parse({ id: 3, kind: 'state', name: 'Ask' });
const arrow = arrowSchema.parse({ id: 1, from: 1, to: 2, kind: 'unconditional' });
const request = {
  type: 'GET',
  url: 'https://example.com',
  headers: '',
  params: '',
  storedValues: '',
  checkParamsFormat: true,
} as const;

describe('block editor validation', () => {
  it('accepts a valid block, filling defaults', () => {
    const result = validateBlock({ ...block, text: 'Hi #{name}' });
    expect(result.ok && result.value.text).toBe('Hi #{name}');
  });

  it('names the field of each zod error', () => {
    const result = validateBlock({
      ...block,
      buttons: [{ type: 'reply', text: '' }],
      attachments: [{ type: 'image', url: '' }],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors['buttons[0].text']).toBe('button text is empty');
      expect(result.errors['attachments[0].url']).toBe('attachment url is empty');
    }
  });

  it('refuses a trigger regex that does not compile', () => {
    const result = validateBlock({
      ...block,
      kind: 'start',
      trigger: { alternatives: 'ok;(unclosed', match: 'regex', expression: '', ignore: '' },
    });
    expect(!result.ok && result.errors['trigger.alternatives']).toContain('(unclosed');
    expect(regexIssue({ alternatives: '(unclosed', match: 'keywords' })).toBeNull();
  });

  it('refuses request headers and parameters that are not JSON, unless the format check is off', () => {
    const bad = { ...request, headers: '{"a": ', params: '{"n": #{n}}' };
    const result = validateBlock({ ...block, request: bad });
    expect(!result.ok && Object.keys(errorsUnder(result.errors, 'request.'))).toEqual(['headers', 'params']);
    expect(requestJsonIssues({ ...bad, headers: '{}', checkParamsFormat: false })).toEqual({});
    expect(requestJsonIssues({ ...bad, headers: '[1]' }).headers).toContain('JSON object');
  });
});

describe('arrow editor validation', () => {
  it('applies the bot schema rules: a timer arrow needs a timer, collectInto is a variable name', () => {
    const timer = validateArrow({ ...arrow, kind: 'timer' });
    expect(!timer.ok && timer.errors.timer).toBe('a timer arrow needs a timer');
    const collect = validateArrow({ ...arrow, collectInto: '1st name' });
    expect(!collect.ok && collect.errors.collectInto).toContain('is not a variable name');
    expect(validateArrow({ ...arrow, collectInto: 'client.email' }).ok).toBe(true);
    expect(validateArrow({ ...arrow, from: 2, to: 2 }).ok).toBe(true);
  });

  it('checks timer dates and regex alternatives', () => {
    const at = validateArrow({ ...arrow, kind: 'timer', timer: { at: 'tomorrow' } });
    expect(!at.ok && at.errors['timer.at']).toContain('dd.mm.yyyy');
    expect(timerAtIssue('01.02.2027 10:30')).toBeNull();
    expect(timerAtIssue('#{reminder_at}')).toBeNull();
    const regex = validateArrow({
      ...arrow,
      kind: 'condition',
      condition: { alternatives: '[a-', match: 'regex', expression: '', ignore: '' },
    });
    expect(!regex.ok && regex.errors['condition.alternatives']).toBeTruthy();
  });
});

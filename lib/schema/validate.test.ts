import { describe, expect, it } from 'vitest';
import { arrowSchema, BOT_SCHEMA_FORMAT, blockSchema, parseBotSchema } from '@/lib/schema';
import {
  errorsUnder,
  formulaIssue,
  regexIssue,
  requestJsonIssues,
  requestUrlIssue,
  storedValuesIssue,
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

  it('refuses callback_data over 64 bytes, which is fewer than 64 Cyrillic letters (issue 30)', () => {
    const cyrillic = (n: number) => 'д'.repeat(n);
    const result = validateBlock({
      ...block,
      buttons: [
        { type: 'inline', text: 'Fits', callback_data: cyrillic(32) },
        { type: 'inline', text: 'Too long', callback_data: cyrillic(41) },
      ],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(Object.keys(result.errors)).toEqual(['buttons[1].callback_data']);
      expect(result.errors['buttons[1].callback_data']).toMatch(/at most 64 bytes.*this one is 82/);
    }
    const hint = validateBlock({
      ...block,
      buttons: { hint: 'Pick', buttons: [{ type: 'inline', text: 'A', callback_data: cyrillic(41) }] },
    });
    expect(hint.ok || Object.keys(hint.errors)).toEqual(['buttons.buttons[0].callback_data']);
    // Saving or importing a whole bot refuses it at the block's path too.
    const bot = parseBotSchema({
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        { id: 1, kind: 'state', buttons: [{ type: 'inline', text: 'A', callback_data: cyrillic(41) }] },
      ],
      arrows: [],
    });
    expect(bot.ok || bot.errors.map((e) => e.field)).toEqual(['blocks[0].buttons[0].callback_data']);
    // A bot stored before the check still loads: only incoming buttons are held to it.
    expect(
      blockSchema.safeParse({
        ...block,
        buttons: [{ type: 'inline', text: 'A', callback_data: cyrillic(41) }],
      }).success,
    ).toBe(true);
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

describe('formulas, comparison expressions and request fields', () => {
  it('does not let a broken formula into the schema: the error names its line and column', () => {
    const broken = validateBlock({ ...block, formula: 'a = 1\nb = lenn(a)\nc = )' });
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.errors.formula).toBe(
      'line 2, column 5: unknown function lenn() (and 1 more)',
    );
    expect(formulaIssue('c = lenn(a)')).toBe('line 1, column 5: unknown function lenn()');
    expect(validateBlock({ ...block, formula: 'a = 1\nb = round(a, 2)' }).ok).toBe(true);
  });

  it('checks comparison expressions of triggers and arrows as one expression', () => {
    const trigger = { alternatives: '', match: 'exact', expression: 'age >=', ignore: '' } as const;
    const start = validateBlock({ ...block, kind: 'start', trigger });
    expect(!start.ok && start.errors['trigger.expression']).toMatch(/^line 1, column/);
    const condition = { ...trigger, alternatives: 'yes', expression: 'x = 1' };
    const assign = validateArrow({ ...arrow, kind: 'condition', condition });
    expect(!assign.ok && assign.errors['condition.expression']).toContain('an expression is expected');
    expect(
      validateArrow({ ...arrow, kind: 'condition', condition: { ...condition, expression: 'age >= 18' } }).ok,
    ).toBe(true);
  });

  it('gives the position of JSON errors; a bare #{n} in parameters needs the format check off', () => {
    expect(requestJsonIssues({ ...request, headers: '{"a": 1,}' }).headers).toBe(
      'not valid JSON: line 1, column 9: Expected a "quoted" key',
    );
    expect(requestJsonIssues({ ...request, headers: '{"n": #{n}}' })).toEqual({});
    const bare = { ...request, type: 'POST-json', params: '{"n": #{n}, "s": "#{s}"}' } as const;
    expect(requestJsonIssues(bare).params).toContain('#{n} stands outside quotes');
    expect(requestJsonIssues({ ...bare, checkParamsFormat: false })).toEqual({});
  });

  it('wants a request URL the safe client can call: http(s), or a variable holding the base', () => {
    const result = validateBlock({ ...block, request: { ...request, url: 'api.example.com/orders' } });
    expect(!result.ok && result.errors['request.url']).toContain('start the URL with http:// or https://');
    expect(requestUrlIssue('ftp://example.com')).not.toBeNull();
    expect(requestUrlIssue(' HTTPS://example.com/#{id}')).toBeNull();
    expect(requestUrlIssue('#{base_url}/orders')).toBeNull();
  });

  it('refuses bad stored values, naming the phrase and where it is', () => {
    const result = validateArrow({ ...arrow, request: { ...request, storedValues: 'data|id->id; total' } });
    expect(!result.ok && result.errors['request.storedValues']).toBe(
      `phrase 2, at character 14: "total" has no '->': write <path>-><variable>, e.g. data|items|0|price->price`,
    );
    expect(storedValuesIssue({ ...request, storedValues: 'data|id->id; x->client.x' })).toBeNull();
  });
});

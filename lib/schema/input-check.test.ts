import { describe, expect, it } from 'vitest';
import { blockInputSchema } from './bot-schema';
import { checkInput, retryText } from './input-check';

const ok = (type: Parameters<typeof checkInput>[0]['type'], reply: string, choices = '') =>
  checkInput({ type, choices }, reply);

describe('checkInput', () => {
  it('e-mail addresses', () => {
    expect(ok('email', '  ann@example.com ')).toEqual({ ok: true, value: 'ann@example.com' });
    for (const bad of ['ann@', 'ann example.com', 'ann@@x.io', '']) expect(ok('email', bad).ok).toBe(false);
  });

  it('phone numbers with their country code, stored + and digits', () => {
    expect(ok('phone', '+44 20 7946 0958')).toEqual({ ok: true, value: '+442079460958' });
    expect(ok('phone', '0049 (30) 1234-5678')).toEqual({ ok: true, value: '+493012345678' });
    for (const bad of ['12', 'call me', '+1 000', '+44 20 7946 0958 ext'])
      expect(ok('phone', bad).ok, bad).toBe(false);
  });

  it('numbers, with a comma or a dot, spaces between thousands', () => {
    expect(ok('number', '42')).toEqual({ ok: true, value: '42' });
    expect(ok('number', '3,5')).toEqual({ ok: true, value: '3.5' });
    expect(ok('number', '-1 250.75')).toEqual({ ok: true, value: '-1250.75' });
    for (const bad of ['forty', '1.2.3', '12a']) expect(ok('number', bad).ok).toBe(false);
  });

  it('dates that exist, stored dd.mm.yyyy', () => {
    expect(ok('date', '1.2.2027')).toEqual({ ok: true, value: '01.02.2027' });
    expect(ok('date', '29/02/2028')).toEqual({ ok: true, value: '29.02.2028' });
    expect(ok('date', '2026-12-31')).toEqual({ ok: true, value: '31.12.2026' });
    for (const bad of ['31.02.2027', '29.02.2027', 'tomorrow', '12.2026'])
      expect(ok('date', bad).ok).toBe(false);
  });

  it('one of the choices, in any case or by its number, stored as listed', () => {
    const choices = 'Small; Medium ;Large';
    expect(ok('choice', 'medium', choices)).toEqual({ ok: true, value: 'Medium' });
    expect(ok('choice', '3', choices)).toEqual({ ok: true, value: 'Large' });
    for (const bad of ['4', '0', 'huge']) expect(ok('choice', bad, choices).ok).toBe(false);
  });
});

describe('the input of a block', () => {
  it('says what is expected when the designer wrote no re-ask text', () => {
    const input = blockInputSchema.parse({ type: 'choice', variable: 'size', choices: 'S;M' });
    expect(input.attempts).toBe(3);
    expect(retryText(input)).toBe('Please choose one of: S, M.');
    expect(retryText({ ...input, retryText: 'S or M?' })).toBe('S or M?');
  });

  it('refuses a choice input without choices and a variable that is not a name, naming the field', () => {
    const issues = (value: unknown) =>
      blockInputSchema.safeParse(value).error?.issues.map((i) => i.path.join('.'));
    expect(issues({ type: 'choice', variable: 'size' })).toEqual(['choices']);
    expect(issues({ type: 'email', variable: '1st mail' })).toEqual(['variable']);
  });
});

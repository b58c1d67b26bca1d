import { describe, expect, it } from 'vitest';
import { placeWarnings, warningOf } from './warnings';

const request = { method: 'GET', url: 'http://127.0.0.1/x' };

describe('warningOf', () => {
  it('warns of a request not sent, failed or whose stored values matched nothing; not of one that went well', () => {
    expect(warningOf('request', { blockId: 3, request, errors: ['blocked address'] })?.text).toBe(
      "The request was not sent: block #3's request (GET http://127.0.0.1/x): blocked address",
    );
    expect(warningOf('request', { arrowId: 4, request, status: 502, errors: [] })?.text).toBe(
      "The request failed with HTTP 502: arrow #4's condition request (GET http://127.0.0.1/x).",
    );
    const stored = warningOf('request', {
      blockId: 3,
      request,
      status: 200,
      errors: ["Stored value id: 'order' not found"],
    });
    expect(stored?.text).toMatch(/^Stored values not saved .*'order' not found$/);
    expect(stored?.fix).toMatch(/Check the path in Stored values/);
    expect(warningOf('request', { blockId: 3, request, status: 200, errors: [] })).toBeNull();
  });

  it('warns of an unknown #{name} and of formula and expression errors; other entries give none', () => {
    expect(warningOf('unknown_variable', { name: 'city' })?.text).toBe(
      '#{city} is not set, so it was left empty.',
    );
    expect(
      warningOf('formula_error', { blockId: 2, line: 1, column: 5, message: 'division by zero' })?.text,
    ).toBe('Formula error in block #2, line 1, column 5: division by zero');
    expect(warningOf('formula_error', { expression: 'a +', message: 'unexpected end' })?.text).toBe(
      '#{a +} failed, so it was left empty: unexpected end',
    );
    expect(warningOf('block', { blockId: 1 })).toBeNull();
  });

  it("warns of a block's message held back because its ask_operator() failed", () => {
    expect(
      warningOf('message_withheld', {
        blockId: 3,
        reason: 'its ask_operator() failed, so no operator was asked',
      }),
    ).toEqual({
      text: "Block #3's message was not sent: its ask_operator() failed, so no operator was asked.",
      fix: 'See the formula error above. On the free plan, choose the business or AI plan in Settings, Plan.',
    });
  });
});

describe('placeWarnings', () => {
  const t1 = new Date('2026-01-01T10:00:00.000Z');
  const t2 = new Date('2026-01-01T10:00:05.000Z');
  const msg = (text: string, direction: 'in' | 'out', createdAt: Date) => ({ text, direction, createdAt });
  const warn = (text: string, sentBefore: number, createdAt: Date) => ({ text, sentBefore, createdAt });

  it("puts each warning after the messages its event had sent, before the event's next one", () => {
    const placed = placeWarnings(
      [msg('hi', 'in', t1), msg('a', 'out', t1), msg('b', 'out', t1), msg('again', 'in', t2)],
      [warn('before a', 0, t1), warn('before b', 1, t1), warn('also before b', 1, t1), warn('late', 0, t2)],
    );
    expect(placed.map((p) => p.text)).toEqual([
      'hi',
      'before a',
      'a',
      'before b',
      'also before b',
      'b',
      'again',
      'late',
    ]);
  });
});

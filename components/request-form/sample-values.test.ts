import { describe, expect, it } from 'vitest';
import type { BlockRequest } from '@/lib/schema';
import { filledSamples, requestVariables, sampleRows } from './sample-values';

const request: BlockRequest = {
  type: 'POST-json',
  url: 'https://api.example.com/orders/#{order}?q=#{q}',
  headers: '{"Authorization": "Bearer #{project.token}"}',
  params: '{"n": #{n}, "sum": "#{2 + 2}", "q": "#{q}", "nested": "#{a#{i}}"}',
  storedValues: 'data|#{key}->out',
  checkParamsFormat: false,
};

describe('sample values of a test request', () => {
  it('lists the variables the request substitutes once each, without expressions', () => {
    expect(requestVariables(request)).toEqual(['order', 'q', 'project.token', 'n', 'i', 'key']);
    // GET sends no JSON parameters, so their variables are not asked for.
    expect(requestVariables({ ...request, type: 'GET' })).toEqual(['order', 'q', 'project.token', 'key']);
  });

  it('asks no sample for a secret, which is sent as set', () => {
    const withSecret = { ...request, type: 'GET' as const, headers: '{"x": "#{secret.TOKEN}"}' };
    expect(sampleRows(withSecret, []).map((r) => r.name)).toEqual(['order', 'q', 'key']);
  });

  it("keeps the designer's rows and adds an empty one for each variable still without a value, but constants", () => {
    const rows = [
      { name: 'q', value: 'pizza' },
      { name: 'extra', value: '1' },
    ];
    expect(sampleRows({ ...request, type: 'GET' }, rows)).toEqual([
      { name: 'q', value: 'pizza' },
      { name: 'extra', value: '1' },
      { name: 'order', value: '' },
      { name: 'key', value: '' },
    ]);
  });

  it('sends only named, filled rows, trimmed, so an empty row does not hide a project constant', () => {
    expect(
      filledSamples([
        { name: ' q ', value: 'pizza' },
        { name: 'project.token', value: '' },
        { name: '  ', value: 'lost' },
        { name: 'space', value: ' ' },
      ]),
    ).toEqual([
      { name: 'q', value: 'pizza' },
      { name: 'space', value: ' ' },
    ]);
  });
});

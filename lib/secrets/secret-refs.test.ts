import { describe, expect, it } from 'vitest';
import {
  defangSecretRefs,
  describeSecrets,
  fillSecrets,
  MASK,
  maskSecrets,
  secretNamesIn,
  secretSentinel,
} from './secret-refs';

const values = new Map([
  ['TOKEN', 'tok/en "x" 42'],
  ['KEY', 'k3y'],
]);

describe('secret references', () => {
  it('finds names written, as sentinels, and encoded in a form or query', () => {
    expect(secretNamesIn('Bearer #{secret.TOKEN} and #{ secret.KEY }')).toEqual(['TOKEN', 'KEY']);
    expect(secretNamesIn(`a=${secretSentinel('A')}`)).toEqual(['A']);
    expect(secretNamesIn(new URLSearchParams({ k: '#{secret.B}' }).toString())).toEqual(['B']);
    expect(secretNamesIn(encodeURIComponent('#{secret.C}'))).toEqual(['C']);
    expect(secretNamesIn('#{project.TOKEN} #{secret.1bad}')).toEqual([]);
  });

  it('puts values in encoded for where they land, and names the missing ones', () => {
    const url = fillSecrets(`https://x.test/?k=${secretSentinel('TOKEN')}`, values, encodeURIComponent);
    expect(url).toEqual({ text: 'https://x.test/?k=tok%2Fen%20%22x%22%2042', missing: [] });
    const json = fillSecrets(`{"auth":"${secretSentinel('TOKEN')}"}`, values, (v) =>
      JSON.stringify(v).slice(1, -1),
    );
    expect(JSON.parse(json.text)).toEqual({ auth: 'tok/en "x" 42' });
    const form = new URLSearchParams({ key: '#{secret.TOKEN}' }).toString();
    expect(new URLSearchParams(fillSecrets(form, values, encodeURIComponent, true).text).get('key')).toBe(
      'tok/en "x" 42',
    );
    expect(fillSecrets('#{secret.NOPE}', values, (v) => v)).toEqual({
      text: '#{secret.NOPE}',
      missing: ['NOPE'],
    });
  });

  it('fills a percent-encoded reference only where encoding happens (a URL, a form), never in JSON or a header', () => {
    const encoded = encodeURIComponent('#{secret.TOKEN}');
    expect(fillSecrets(encoded, values, (v) => v).text).toBe(encoded);
  });

  it('defangs what data spells, so only a designer’s reference counts', () => {
    const typed = `#{secret.TOKEN} ${secretSentinel('TOKEN')} ${encodeURIComponent('#{secret.TOKEN}')}`;
    const defanged = defangSecretRefs(typed);
    expect(secretNamesIn(defanged)).toEqual([]);
    expect(fillSecrets(defanged, values, encodeURIComponent, true).text).toBe(defanged);
  });

  it('shows sentinels and encoded references as #{secret.NAME}', () => {
    expect(describeSecrets(`Bearer ${secretSentinel('TOKEN')}`)).toBe('Bearer #{secret.TOKEN}');
    expect(describeSecrets(`q=${encodeURIComponent(secretSentinel('K'))}`)).toBe('q=#{secret.K}');
  });

  it('masks values as they are, URL-encoded and JSON-escaped, but not very short ones', () => {
    const echoed = JSON.stringify({
      authorization: 'Bearer tok/en "x" 42',
      url: '/?k=tok%2Fen%20%22x%22%2042',
    });
    const masked = maskSecrets(echoed, values.values());
    expect(masked).not.toContain('tok/en');
    expect(masked).not.toContain('tok%2Fen');
    expect(masked.split(MASK)).toHaveLength(3);
    expect(maskSecrets('k3y', values.values())).toBe('k3y');
  });
});

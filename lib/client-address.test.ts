import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address';

describe('clientAddress', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(['203.0.113.9', '10.0.0.2'], 0)).toBe('10.0.0.2');
    expect(clientAddress([], 0)).toBe('unknown');
  });

  it('behind trusted proxies, is the entry the first of them added; entries further left are ignored', () => {
    expect(clientAddress(['forged', ' 198.51.100.1', '10.0.0.2'], 1)).toBe('198.51.100.1');
    expect(clientAddress(['198.51.100.1', '10.0.0.3', '10.0.0.2'], 2)).toBe('198.51.100.1');
    expect(clientAddress(['10.0.0.2'], 3)).toBe('10.0.0.2');
  });

  it('reads IPv4-mapped addresses as IPv4 and groups IPv6 by /64', () => {
    expect(clientAddress(['::ffff:127.0.0.1'], 0)).toBe('127.0.0.1');
    expect(clientAddress(['2001:db8:0:1::5'], 0)).toBe('2001:db8:0:1::/64');
    expect(clientAddress(['2001:DB8:0000:1:ffff::9'], 0)).toBe('2001:db8:0:1::/64');
    expect(clientAddress(['::1'], 0)).toBe('0:0:0:0::/64');
  });
});

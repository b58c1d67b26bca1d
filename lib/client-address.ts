import { isIPv6 } from 'node:net';

/**
 * The address a request comes from, for per-client limits. `chain` is the X-Forwarded-For
 * entries followed by the connection's peer; the last `trustedProxies` entries were added by
 * our own proxies, so the one before them is the client's (anything further left, the client
 * could have written itself). IPv6 clients are grouped by their /64, which one host can span.
 */
export function clientAddress(chain: readonly string[], trustedProxies: number): string {
  const entries = chain.map((entry) => entry.trim()).filter(Boolean);
  if (!entries.length) return 'unknown';
  const address = entries[Math.max(0, entries.length - 1 - trustedProxies)].replace(
    /^::ffff:(?=[\d.]+$)/i,
    '',
  );
  return isIPv6(address) ? `${expandIPv6(address).slice(0, 4).join(':')}::/64` : address;
}

/** The eight groups of an IPv6 address, `::` expanded. */
function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  return [...groups(head), ...Array(tail === undefined ? 0 : missing).fill('0'), ...groups(tail)].map((g) =>
    g.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}

import ipaddr from 'ipaddr.js';

/**
 * The address a request comes from, for per-client limits. `chain` is the X-Forwarded-For
 * entries followed by the connection's peer; the last `trustedProxies` entries were added by
 * our own proxies, so the one before them is the client's (anything further left, the client
 * could have written itself). IPv6 clients are grouped by their /64, which one host can span.
 */
export function clientAddress(chain: readonly string[], trustedProxies: number): string {
  const entries = chain.map((entry) => entry.trim()).filter(Boolean);
  if (!entries.length) return 'unknown';
  const entry = entries[Math.max(0, entries.length - 1 - trustedProxies)];
  if (!ipaddr.isValid(entry)) return entry;
  // (process() reads an IPv4-mapped IPv6 address as the IPv4 address it carries.)
  const address = ipaddr.process(entry);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

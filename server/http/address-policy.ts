import ipaddr from 'ipaddr.js';

/**
 * Which addresses outgoing requests may reach: public unicast only. Everything a server could
 * use to reach itself, its network or its cloud's metadata is refused, whatever the spelling.
 */
const BLOCKED_V4_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
  'reserved',
  'benchmarking',
  'amt',
  'as112',
  'deprecated',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
]);

const EXTRA_V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['100.100.100.200', 32],
];

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];

/** Why an address is refused, or null when it is a public unicast address. */
export function blockedReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'is not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    // Addresses that embed an IPv4 one are judged by it (and refused when it is private).
    if (range === 'ipv4Mapped' || v6.isIPv4MappedAddress())
      return blockedReason(v6.toIPv4Address().toString());
    if (range === 'rfc6052' || range === 'rfc6145' || range === '6to4' || range === 'teredo') {
      return `is a translated IPv6 address (${range})`;
    }
    if (range !== 'unicast') return `is a ${describeRange(range)} address`;
    // ipaddr.js calls everything it has no name for unicast, but only 2000::/3 is allocated as
    // global unicast: the rest is reserved, such as ::/96 ([::127.0.0.1] parses to ::7f00:1).
    if (v6.match(IPV4_COMPATIBLE)) return 'is an IPv4-compatible IPv6 address (::/96)';
    if (!v6.match(GLOBAL_UNICAST)) return 'is not a global unicast IPv6 address (outside 2000::/3)';
    return null;
  }
  const v4 = parsed as ipaddr.IPv4;
  const range = v4.range();
  if (BLOCKED_V4_RANGES.has(range)) return `is a ${describeRange(range)} address`;
  for (const [base, bits] of EXTRA_V4_BLOCKS) {
    if (v4.match(ipaddr.parse(base) as ipaddr.IPv4, bits)) return 'is a reserved or cloud-metadata address';
  }
  return null;
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private-network',
    linkLocal: 'link-local (cloud metadata)',
    carrierGradeNat: 'carrier-grade NAT',
    unspecified: 'unspecified',
    uniqueLocal: 'unique-local (private)',
    multicast: 'multicast',
    broadcast: 'broadcast',
    reserved: 'reserved',
    deprecatedSiteLocal: 'site-local (deprecated, private)',
  };
  return names[range] ?? range;
}

/** An IP literal in any spelling WHATWG URL parsing accepts (it normalises 0x7f.1, 2130706433, …). */
export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''));
}

export function stripBrackets(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/** Allow-list entries: `host`, `host:port`, an IP, or a CIDR range. */
export function isAllowed(
  allowHosts: readonly string[],
  hostname: string,
  port: string,
  address?: string,
): boolean {
  const host = stripBrackets(hostname).toLowerCase();
  for (const raw of allowHosts) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        for (const candidate of [host, address]) {
          if (candidate && ipaddr.isValid(candidate)) {
            const ip = ipaddr.process(candidate);
            if (ip.kind() === range.kind() && ip.match([range, bits] as never)) return true;
          }
        }
      } catch {
        // not a CIDR entry
      }
      continue;
    }
    const [entryHost, entryPort] = entry.startsWith('[')
      ? [entry.slice(1, entry.indexOf(']')), entry.split(']:')[1]]
      : entry.split(':');
    if (entryHost === host && (!entryPort || entryPort === port)) return true;
  }
  return false;
}

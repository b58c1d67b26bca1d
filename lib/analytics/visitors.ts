/**
 * Unique clients over any range of days, from one small value per day (docs/analytics.md).
 * A set of clients is kept exactly while it is small (their hashes, sorted) and as
 * HyperLogLog registers once it is not: 1,024 registers, a standard error of about 3 %.
 * Client ids hash by a bijection, so the exact form never confuses two clients. Pure: the
 * roll-up (server/analytics) stores the bytes, the analytics read merges them.
 */

/** 2^10 registers: one byte each, so a dense set is 1,024 bytes. */
const REGISTER_BITS = 10;
const REGISTERS = 1 << REGISTER_BITS;
/** Up to this many clients the set is exact: 4 bytes each, always shorter than a dense one. */
const EXACT_LIMIT = 255;

export type Visitors = Uint8Array;

export const noVisitors = (): Visitors => new Uint8Array(0);

/** murmur3's finaliser: a bijection on 32-bit numbers that spreads consecutive ids. */
export function clientHash(clientId: number): number {
  let h = clientId >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const isDense = (v: Visitors) => v.length === REGISTERS;

function forEachHash(v: Visitors, fn: (hash: number) => void): void {
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
  for (let i = 0; i < v.length; i += 4) fn(view.getUint32(i));
}

/** Distinct hashes, sorted, while few; registers past EXACT_LIMIT (only then is sorting skipped). */
function exact(hashes: Iterable<number>): Visitors {
  const distinct = new Set(hashes);
  if (distinct.size > EXACT_LIMIT) return dense(distinct);
  const sorted = [...distinct].sort((a, b) => a - b);
  const out = new Uint8Array(sorted.length * 4);
  const view = new DataView(out.buffer);
  for (const [i, h] of sorted.entries()) view.setUint32(i * 4, h);
  return out;
}

function addToRegisters(registers: Uint8Array, hash: number): void {
  const index = hash >>> (32 - REGISTER_BITS);
  // The position of the first 1 in the remaining 22 bits (23 when they are all 0).
  const rank = Math.clz32(((hash << REGISTER_BITS) | (1 << (REGISTER_BITS - 1))) >>> 0) + 1;
  if (rank > registers[index]) registers[index] = rank;
}

function dense(hashes: Iterable<number>, into: Uint8Array = new Uint8Array(REGISTERS)): Visitors {
  for (const h of hashes) addToRegisters(into, h);
  return into;
}

/** The set of these clients. */
export function visitorsOf(clientIds: Iterable<number>): Visitors {
  return exact([...clientIds].map(clientHash));
}

/** The union of sets (a range of days, several processes' roll-ups). */
export function mergeVisitors(sets: Iterable<Visitors>): Visitors {
  // Exact while the union is small; past EXACT_LIMIT every further client goes straight to the
  // registers, so a merge of many days costs no large set.
  const hashes = new Set<number>();
  let registers: Uint8Array | null = null;
  const add = (h: number) => {
    if (registers) addToRegisters(registers, h);
    else if (hashes.add(h).size > EXACT_LIMIT) registers = dense(hashes);
  };
  for (const set of sets) {
    if (isDense(set)) {
      registers ??= dense(hashes);
      for (let i = 0; i < REGISTERS; i++) if (set[i] > registers[i]) registers[i] = set[i];
    } else forEachHash(set, add);
  }
  return registers ?? exact(hashes);
}

/** How many clients: exact for a small set, estimated (±3 % typically) for a large one. */
export function countVisitors(v: Visitors): number {
  if (!isDense(v)) return v.length / 4;
  let sum = 0;
  let zeros = 0;
  for (const r of v) {
    sum += 2 ** -r;
    if (r === 0) zeros++;
  }
  const alpha = 0.7213 / (1 + 1.079 / REGISTERS);
  const raw = (alpha * REGISTERS * REGISTERS) / sum;
  // Linear counting is the better estimate while many registers are still empty.
  const estimate = raw <= 2.5 * REGISTERS && zeros > 0 ? REGISTERS * Math.log(REGISTERS / zeros) : raw;
  return Math.round(estimate);
}

/** The form the database's `encode(visitors, 'hex')` and `decode(…, 'hex')` speak. */
export const visitorsToHex = (v: Visitors): string =>
  Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('');

export function visitorsFromHex(hex: string): Visitors {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * The int8 scan's inner loop as a WebAssembly SIMD function (docs/knowledge-base.md, "Search"):
 * each vector's dot product with the query, 16 dimensions an instruction, about ten times the
 * plain loop's speed. Exact, not approximate: the query is quantised to int16 (an error of about
 * 1/30,000 of its largest value), the codes are the index's own, and the sums are integers.
 *
 * The module is written out below opcode by opcode (no build step, no dependency); its function:
 *
 *   dots(query, codes, count, dims, padded, out): for each of `count` vectors of `dims` int8
 *   codes from `codes`, out[v] (int32) = Σ codes[v][i] × query[i] over `padded` dimensions
 *   (`dims` rounded up to 16). `query` is `padded` int16 values, zero past `dims`, so the bytes
 *   read past a vector's end (the next vector's, or the 16 spare bytes after the last) add 0.
 */

const SIMD = 0xfd;
const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  i32Store: 0x36,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Shl: 0x74,
  void: 0x40,
} as const;
// SIMD opcodes (after the 0xfd prefix, LEB128).
const simd = {
  load: [SIMD, 0x00],
  const: [SIMD, 0x0c],
  extractLane: [SIMD, 0x1b],
  extendLow: [SIMD, 0x87, 0x01],
  extendHigh: [SIMD, 0x88, 0x01],
  add: [SIMD, 0xae, 0x01],
  dot: [SIMD, 0xba, 0x01],
} as const;
const I32 = 0x7f;
const V128 = 0x7b;

// Parameters, then locals.
const QUERY = 0;
const CODES = 1;
const COUNT = 2;
const DIMS = 3;
const PADDED = 4;
const OUT = 5;
const V = 6;
const I = 7;
const ACC = 8;
const CODE = 9;

/** An unsigned LEB128 number. */
function leb(n: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    bytes.push(byte);
  } while (n);
  return bytes;
}
const vec = (items: number[][]) => [...leb(items.length), ...items.flat()];
const name = (text: string) => [...leb(text.length), ...new TextEncoder().encode(text)];
const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content];
const get = (local: number) => [op.localGet, local];
const set = (local: number) => [op.localSet, local];
const i32 = (n: number) => [op.i32Const, n]; // small non-negative constants only (< 64)

/** A query's 16 int16 values at 2 × i, + offset bytes, then their dot products with `CODE`'s half. */
const halfDot = (extend: readonly number[], offset: number) => [
  ...get(CODE),
  ...extend,
  ...get(QUERY),
  ...get(I),
  ...i32(1),
  op.i32Shl,
  op.i32Add,
  ...simd.load,
  0,
  ...leb(offset),
  ...simd.dot,
  ...simd.add,
];

const body = [
  ...vec([
    [2, I32],
    [2, V128],
  ]),
  op.block,
  op.void,
  op.loop,
  op.void,
  // while (v < count)
  ...get(V),
  ...get(COUNT),
  op.i32GeU,
  op.brIf,
  1,
  ...simd.const,
  ...new Array(16).fill(0),
  ...set(ACC),
  ...i32(0),
  ...set(I),
  op.block,
  op.void,
  op.loop,
  op.void,
  // while (i < padded)
  ...get(I),
  ...get(PADDED),
  op.i32GeU,
  op.brIf,
  1,
  ...get(CODES),
  ...get(I),
  op.i32Add,
  ...simd.load,
  0,
  0,
  ...set(CODE),
  ...get(ACC),
  ...halfDot(simd.extendLow, 0),
  ...halfDot(simd.extendHigh, 16),
  ...set(ACC),
  ...get(I),
  ...i32(16),
  op.i32Add,
  ...set(I),
  op.br,
  0,
  op.end,
  op.end,
  // out[v] = the four lanes' sum
  ...get(OUT),
  ...get(V),
  ...i32(2),
  op.i32Shl,
  op.i32Add,
  ...[0, 1, 2, 3].flatMap((lane) => [...get(ACC), ...simd.extractLane, lane, ...(lane ? [op.i32Add] : [])]),
  op.i32Store,
  2,
  0,
  ...get(CODES),
  ...get(DIMS),
  op.i32Add,
  ...set(CODES),
  ...get(V),
  ...i32(1),
  op.i32Add,
  ...set(V),
  op.br,
  0,
  op.end,
  op.end,
  op.end,
];

const moduleBytes = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0]])),
  ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])),
  ...section(3, vec([[0]])),
  ...section(7, vec([[...name('dots'), 0x00, 0]])),
  ...section(10, vec([[...leb(body.length), ...body]])),
]);

type Dots = (query: number, codes: number, count: number, dims: number, padded: number, out: number) => void;

/** Null where WebAssembly or its SIMD is missing (node --jitless): the plain loop scans then. */
const compiled: WebAssembly.Module | null = (() => {
  try {
    return new WebAssembly.Module(moduleBytes);
  } catch {
    return null;
  }
})();

/** Vectors' codes in a WebAssembly memory with room for a scan's query and dot products. */
interface Scanner {
  dots: Dots;
  memory: WebAssembly.Memory;
  dimensions: number;
  count: number;
  queryAt: number;
  outAt: number;
}

// Keyed by the codes' buffer (the memory's own): an index allocated by `simdCodes` is scanned
// in place. Weak: an index dropped from the cache frees its memory.
const scanners = new WeakMap<ArrayBufferLike, Scanner>();

const PAGE = 65536;
const roundUp = (n: number, to: number) => Math.ceil(n / to) * to;

/**
 * Zeroed int8 codes for `count` vectors of `dimensions`, in a memory the SIMD scan reads in
 * place; a plain Int8Array where there is no SIMD or no such memory.
 */
export function simdCodes(count: number, dimensions: number): Int8Array {
  if (!compiled || count === 0) return new Int8Array(count * dimensions);
  const padded = roundUp(dimensions, 16);
  const queryAt = roundUp(count * dimensions + 16, 16);
  const outAt = queryAt + padded * 2;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: Math.ceil((outAt + count * 4) / PAGE) });
  } catch {
    // Past WebAssembly's 4 GB, or refused by the system: the plain loop scans a plain array.
    return new Int8Array(count * dimensions);
  }
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  scanners.set(memory.buffer, {
    dots: instance.exports.dots as Dots,
    memory,
    dimensions,
    count,
    queryAt,
    outAt,
  });
  return new Int8Array(memory.buffer, 0, count * dimensions);
}

/**
 * Each vector's dot product with `query` as integers (scaled by the returned factor and the
 * vector's scale, it is the cosine), by SIMD; null when `codes` were not made by `simdCodes`
 * for these dimensions.
 */
export function simdDots(
  codes: Int8Array,
  dimensions: number,
  query: Float32Array,
): { dots: Int32Array; scale: number } | null {
  const scanner = scanners.get(codes.buffer);
  if (!scanner || scanner.dimensions !== dimensions || codes.byteOffset !== 0) return null;
  const { count, queryAt, outAt, memory } = scanner;
  const padded = roundUp(dimensions, 16);
  // The largest query value such that no sum can pass int32: |code| ≤ 127 over `padded` terms.
  const limit = Math.min(32767, Math.floor(0x7fffffff / (127 * padded)));
  let max = 0;
  for (const x of query) max = Math.max(max, Math.abs(x));
  const scale = max / limit || 1;
  const q = new Int16Array(memory.buffer, queryAt, padded);
  q.fill(0);
  for (let i = 0; i < dimensions; i++) q[i] = Math.round(query[i] / scale);
  scanner.dots(queryAt, 0, count, dimensions, padded, outAt);
  return { dots: new Int32Array(memory.buffer, outAt, count), scale };
}

/**
 * Embedding vectors as the knowledge base keeps them: normalised to length 1 (so a dot product
 * is the cosine similarity) and stored as little-endian float32 bytes.
 */

/** The vector scaled to length 1; refuses vectors of no length or with non-finite values. */
export function normalise(vector: readonly number[]): Float32Array {
  let sum = 0;
  for (const x of vector) {
    if (!Number.isFinite(x)) throw new Error('The embedding has a value that is not a finite number.');
    sum += x * x;
  }
  if (sum === 0) throw new Error('The embedding is all zeros.');
  const scale = 1 / Math.sqrt(sum);
  return Float32Array.from(vector, (x) => x * scale);
}

/** Little-endian float32 bytes, whatever the machine's byte order. */
export function vectorBytes(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i], true);
  return bytes;
}

export function bytesVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

/** 4-byte big-endian integers (PostgreSQL's int4send) as numbers. */
export function bigEndianInts(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ints = new Int32Array(bytes.byteLength / 4);
  for (let i = 0; i < ints.length; i++) ints[i] = view.getInt32(i * 4, false);
  return ints;
}

/**
 * A normalised vector as int8 with one scale (value = int8 × scale): a quarter of float32's
 * memory for the in-process search, at a cosine error of about 1/254 per dimension's share.
 */
export function quantise(vector: Float32Array, into: Int8Array, offset: number): number {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  for (let i = 0; i < vector.length; i++) into[offset + i] = Math.round(vector[i] / scale);
  return scale;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** The constant of reciprocal rank fusion (Cormack et al. 2009): dampens the top ranks' weight. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of ranked lists of ids: each id scores Σ 1/(RRF_K + rank) over the
 * lists it is in (rank from 1). Scores of different scales (cosine, ts_rank) need no tuning.
 */
export function fuseRanks(lists: readonly (readonly number[])[]): Map<number, number> {
  const scores = new Map<number, number>();
  for (const list of lists)
    for (let i = 0; i < list.length; i++)
      scores.set(list[i], (scores.get(list[i]) ?? 0) + 1 / (RRF_K + i + 1));
  return scores;
}

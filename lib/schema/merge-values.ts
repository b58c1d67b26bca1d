import { DIFF_EQUAL, DIFF_INSERT, makeDiff } from '@sanity/diff-match-patch';

/**
 * Three-way merges of field values (docs/builder.md, "Working together"): two designers changed
 * one field from the same `base`; their changes are merged when they touch different parts of it,
 * a text character by character (two designers typing in one formula), an object key by key, a
 * list of the same length item by item. Where both changed the same characters (or the same key
 * to different values), there is no merge: the caller decides whose wins.
 */
export type Merged = { ok: true; value: unknown } | { ok: false };

const CONFLICT: Merged = { ok: false };

/**
 * How long one diff of long texts may take before it settles for a coarser answer (seconds):
 * two unrelated texts of 100,000 characters would otherwise take seconds, inside the draft's
 * transaction. Texts up to EXACT_DIFF_CHARS together are always diffed exactly (some tens of
 * milliseconds at worst), so their merge never depends on how busy the machine is.
 */
const DIFF_TIMEOUT_S = 0.05;
const EXACT_DIFF_CHARS = 2_000;
/** The library reads a timeout of 0 as its default (1 s): "no limit" is a very long one. */
const NO_TIMEOUT_S = 1e9;

/** Two field values are the same (they are JSON: the editor's values and the stored ones). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  return JSON.stringify(a) === JSON.stringify(b);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `mine` and `theirs`, both made from `base`, as one value with both changes. `whole`: the value
 * is one (a position): when both changed it, there is no merge.
 */
export function mergeValues(base: unknown, mine: unknown, theirs: unknown, whole = false): Merged {
  if (sameValue(mine, theirs) || sameValue(theirs, base)) return { ok: true, value: mine };
  if (sameValue(mine, base)) return { ok: true, value: theirs };
  if (whole) return CONFLICT;
  if (typeof base === 'string' && typeof mine === 'string' && typeof theirs === 'string') {
    const text = mergeText(base, mine, theirs);
    return text === null ? CONFLICT : { ok: true, value: text };
  }
  if (Array.isArray(base) && Array.isArray(mine) && Array.isArray(theirs)) {
    if (mine.length !== base.length || theirs.length !== base.length) return CONFLICT;
    const out: unknown[] = [];
    for (let i = 0; i < base.length; i++) {
      const item = mergeValues(base[i], mine[i], theirs[i]);
      if (!item.ok) return CONFLICT;
      out.push(item.value);
    }
    return { ok: true, value: out };
  }
  if (isRecord(base) && isRecord(mine) && isRecord(theirs)) {
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(base), ...Object.keys(mine), ...Object.keys(theirs)])) {
      const item = mergeValues(base[key], mine[key], theirs[key]);
      if (!item.ok) return CONFLICT;
      if (item.value !== undefined) out[key] = item.value;
    }
    return { ok: true, value: out };
  }
  return CONFLICT;
}

/** A replacement of `base`'s characters [start, end) by `text` (an insertion when start = end). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The edits that turn `base` into `changed`, in order, in `base`'s positions (also what an
 * editor applies to take in a merged text without moving one's cursor).
 */
export function textEdits(base: string, changed: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let at = 0;
  const timeout = base.length + changed.length <= EXACT_DIFF_CHARS ? NO_TIMEOUT_S : DIFF_TIMEOUT_S;
  for (const [op, text] of makeDiff(base, changed, { timeout })) {
    if (op === DIFF_EQUAL) {
      at += text.length;
      continue;
    }
    // A deletion and an insertion side by side are one replacement.
    const last = edits.at(-1);
    const open = last && last.end === at ? last : null;
    const edit = open ?? { start: at, end: at, text: '' };
    if (!open) edits.push(edit);
    if (op === DIFF_INSERT) edit.text += text;
    else {
      at += text.length;
      edit.end = at;
    }
  }
  return edits;
}

/**
 * Where a position of `base` is once `edits` are made: moved by what was inserted or removed
 * before it; inside replaced text, just after the replacement; an insertion at it goes after it.
 */
export function shiftOffset(edits: readonly TextEdit[], offset: number): number {
  let shift = 0;
  for (const edit of edits) {
    if (edit.start >= offset) break;
    if (edit.end > offset) return edit.start + shift + edit.text.length;
    shift += edit.text.length - (edit.end - edit.start);
  }
  return offset + shift;
}

/**
 * Whether two edits touch the same characters. An insertion clashes only with a replacement around
 * it; insertions at one point do not (both are kept), nor an insertion at a replacement's edge.
 */
function overlap(a: TextEdit, b: TextEdit): boolean {
  if (a.start === a.end) return b.start < a.start && a.start < b.end;
  if (b.start === b.end) return a.start < b.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * `mine` and `theirs` merged character by character, or null where both changed the same
 * characters differently. Both inserting at one point keeps both, theirs first (it was stored first).
 */
export function mergeText(base: string, mine: string, theirs: string): string | null {
  const ours = textEdits(base, mine);
  const others = textEdits(base, theirs);
  const all = others.map((edit) => ({ edit, order: 0 }));
  for (const edit of ours) {
    // The same edit made by both is one edit.
    if (others.some((o) => o.start === edit.start && o.end === edit.end && o.text === edit.text)) continue;
    if (others.some((other) => overlap(edit, other))) return null;
    all.push({ edit, order: 1 });
  }
  // By position; at one point an insertion before a replacement, theirs before mine.
  all.sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.order - b.order);
  let out = '';
  let at = 0;
  for (const { edit } of all) {
    out += base.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + base.slice(at);
}

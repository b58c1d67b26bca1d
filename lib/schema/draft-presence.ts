import { z } from 'zod';

/**
 * A designer's presence in the builder (docs/builder.md, "Working together"): sent when their
 * selection or pointer changes and every PRESENCE_BEAT_MS; a canvas forgets one it has not heard
 * from for PRESENCE_TTL_MS, or that left.
 */
export interface Presence {
  /** The browser tab: one person may have the bot open twice. */
  tab: string;
  memberId: number;
  name: string;
  /** The blocks they have selected; the first is the one open in their block editor. */
  selection: number[];
  /** Where their pointer is on the canvas (flow coordinates), when they share it. */
  pointer: { x: number; y: number } | null;
  /** They show others' pointers: a canvas shares its pointer only while someone does. */
  wantsPointers: boolean;
  /** They closed the bot. */
  left: boolean;
}

export const PRESENCE_BEAT_MS = 15_000;
export const PRESENCE_TTL_MS = 40_000;

/** What a canvas sends: the server adds who it is. */
export const presenceInputSchema = z.object({
  tab: z.string().min(8).max(64),
  selection: z.array(z.number().int().positive()).max(100),
  pointer: z.object({ x: z.number().finite(), y: z.number().finite() }).nullable(),
  // Absent from a canvas of before pointers were shared: it asks for none.
  wantsPointers: z.boolean().default(false),
  left: z.boolean().default(false),
});
export type PresenceInput = z.input<typeof presenceInputSchema>;

/** Each person's colour, the same in every canvas: from their member id. */
const COLOURS = ['#e11d48', '#2563eb', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d'];
export const presenceColour = (memberId: number) => COLOURS[memberId % COLOURS.length];

/** A name's initial for the outline's badge and the toolbar (`?` for none). */
export const initialOf = (name: string) => (name.trim()[0] ?? '?').toUpperCase();

/** Whether anyone present asks to see pointers: only then does a canvas share its own. */
export const pointersWanted = (others: readonly Presence[]) => others.some((p) => p.wantsPointers);

/** How stale a kept presence may get while only its pointer moves (well within the TTL). */
const POINTER_ONLY_REFRESH_MS = 5_000;

/**
 * Whether a presence just heard changes what a canvas keeps of it: its selection, name, ask for
 * pointers or leaving, or it is time to refresh when it was heard. Otherwise only its pointer
 * moved, which the pointer layer takes on its own, so the editor does not re-render.
 */
export function presenceNews(
  before: { presence: Presence; at: number } | undefined,
  presence: Presence,
  now: number,
): boolean {
  if (!before || now - before.at >= POINTER_ONLY_REFRESH_MS) return true;
  const was = before.presence;
  return (
    was.name !== presence.name ||
    was.wantsPointers !== presence.wantsPointers ||
    was.left !== presence.left ||
    was.selection.join(',') !== presence.selection.join(',')
  );
}

/** The presences still there at `now`: the latest of each tab, not left, heard within the TTL. */
export function livePresences(
  seen: ReadonlyMap<string, { presence: Presence; at: number }>,
  now: number,
): Presence[] {
  return [...seen.values()]
    .filter(({ presence, at }) => !presence.left && now - at < PRESENCE_TTL_MS)
    .map(({ presence }) => presence)
    .sort((a, b) => a.memberId - b.memberId || a.tab.localeCompare(b.tab));
}

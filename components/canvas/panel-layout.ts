import { z } from 'zod';

/**
 * The builder's side panels (the block or arrow editor, the simulator): how wide each is and
 * whether it is collapsed, remembered in the browser (localStorage: the app keeps no per-user
 * settings of the screen on the server). Pure, but for the storage handed in.
 */

export interface PanelLayout {
  width: number;
  collapsed: boolean;
}

export interface PanelBounds {
  min: number;
  max: number;
  initial: number;
}

export const PANEL_BOUNDS = {
  editor: { min: 260, max: 640, initial: 320 },
  // The simulator's panel; not named 'simulator', a channel kind's name (server/kind-literals.test.ts).
  testChat: { min: 300, max: 640, initial: 384 },
} as const satisfies Record<string, PanelBounds>;
export type PanelName = keyof typeof PANEL_BOUNDS;

/** At most this share of the window: the canvas keeps the rest. */
const MAX_SHARE = 0.4;

/** A width within the panel's bounds, and at most MAX_SHARE of the window (never under `min`). */
export function clampWidth(width: number, bounds: PanelBounds, windowWidth: number): number {
  const max = Math.max(bounds.min, Math.min(bounds.max, Math.floor(windowWidth * MAX_SHARE)));
  return Math.round(Math.min(max, Math.max(bounds.min, width)));
}

const storedSchema = z.object({ width: z.number().finite(), collapsed: z.boolean() });

export const panelKey = (name: PanelName) => `blockbot:panel:${name}`;

/** The stored layout of a panel, or its initial one when nothing (or something unreadable) is stored. */
export function parsePanelLayout(text: string | null, bounds: PanelBounds): PanelLayout {
  let value: unknown = null;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch {
    // Unreadable: as if nothing were stored.
  }
  const stored = storedSchema.safeParse(value);
  return stored.success
    ? {
        width: Math.min(bounds.max, Math.max(bounds.min, stored.data.width)),
        collapsed: stored.data.collapsed,
      }
    : { width: bounds.initial, collapsed: false };
}

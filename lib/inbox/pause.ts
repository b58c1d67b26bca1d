/**
 * The handoff's pause (docs/inbox.md): while an operator has the bot paused for a client, the
 * engine stores the client's messages and routes nothing. A pause ends by hand or when its
 * end passes; nothing has to run then, every reader asks `isBotPaused` with its own clock.
 */
export interface PauseState {
  /** When the pause began; null: the bot runs. */
  botPausedAt: Date | null;
  /** When it ends by itself; null with `botPausedAt` set: until an operator resumes the bot. */
  botPausedUntil: Date | null;
}

/** The bot runs: no pause. */
export const NOT_PAUSED: PauseState = Object.freeze({ botPausedAt: null, botPausedUntil: null });

export function isBotPaused(state: PauseState, now: Date): boolean {
  if (!state.botPausedAt) return false;
  return state.botPausedUntil === null || state.botPausedUntil.getTime() > now.getTime();
}

/** The end of a pause starting now that lasts `minutes` (the project's setting); 0: none. */
export function pauseEnd(now: Date, minutes: number): Date | null {
  return minutes > 0 ? new Date(now.getTime() + minutes * 60_000) : null;
}

/** The longest pause the settings accept: 30 days. */
export const MAX_PAUSE_MINUTES = 30 * 24 * 60;

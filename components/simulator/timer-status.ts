/** A pending timer as the simulator state lists it. */
export interface SimulatorTimerRow {
  /** The block the client stood in when it was scheduled: "left" is measured from it. */
  blockId: number | null;
  payload: unknown;
}

/**
 * The block a "cancel if the client left the block" timer waits on, when the client has left it:
 * the row stays pending until its time, when the engine cancels it instead of firing, so the
 * simulator shows it as cancelled now (it fires again only if the client is back there by then).
 */
export function leftBlockOf(timer: SimulatorTimerRow, currentBlockId: number | null): number | null {
  const cancelIfLeft = (timer.payload as { cancelIfLeft?: boolean } | null)?.cancelIfLeft === true;
  return cancelIfLeft && timer.blockId !== null && timer.blockId !== currentBlockId ? timer.blockId : null;
}

/**
 * A test's wait step is stored in seconds; the form shows it in the largest unit it is a whole
 * number of (90 minutes stay 90 minutes, not 1.5 hours).
 */
export const WAIT_UNITS = [
  { unit: 'days', seconds: 86_400 },
  { unit: 'hours', seconds: 3_600 },
  { unit: 'minutes', seconds: 60 },
  { unit: 'seconds', seconds: 1 },
] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number]['unit'];

export const secondsOf = (unit: WaitUnit) => WAIT_UNITS.find((u) => u.unit === unit)?.seconds ?? 1;

/** The amount and unit a number of seconds reads as. */
export function waitParts(seconds: number): { amount: number; unit: WaitUnit } {
  const fit = WAIT_UNITS.find((u) => seconds > 0 && seconds % u.seconds === 0) ?? WAIT_UNITS[3];
  return { amount: seconds / fit.seconds, unit: fit.unit };
}

/** "2 hours", "1 day": how a wait reads in the list and the results. */
export function waitText(seconds: number): string {
  const { amount, unit } = waitParts(seconds);
  return `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;
}

// Building a formatter costs far more than using one: one per time zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Local wall-clock parts of an instant in a time zone (weekday 1 = Monday … 7 = Sunday). */
export function zonedParts(date: Date, timeZone: string) {
  const f = formatterFor(timeZone);
  const p = Object.fromEntries(f.formatToParts(date).map((x) => [x.type, x.value]));
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(p.weekday) + 1;
  // Years below 1000 keep four digits, as dd.mm.yyyy writes them.
  return { d: p.day, m: p.month, Y: p.year.padStart(4, '0'), H: p.hour, M: p.minute, S: p.second, weekday };
}

/**
 * The instant a wall-clock time of a time zone names (a day's start for a date range, a
 * scheduled time typed in the project's zone). A time skipped by a clock change moves on by
 * the change; a repeated one is its first occurrence.
 */
export function instantOfLocalTime(
  local: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone: string,
): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0);
  const DAY = 86_400_000;
  const offsetAt = (instant: number) => {
    const p = zonedParts(new Date(instant), timeZone);
    return (
      Date.UTC(Number(p.Y), Number(p.m) - 1, Number(p.d), Number(p.H), Number(p.M), Number(p.S)) - instant
    );
  };
  // The zone's offsets a day before and a day after: a clock change in between gives two.
  const before = wall - offsetAt(wall - DAY);
  const after = wall - offsetAt(wall + DAY);
  const readsAsWall = (instant: number) => instant + offsetAt(instant) === wall;
  const matches = [before, after].filter(readsAsWall);
  return new Date(matches.length ? Math.min(...matches) : before);
}

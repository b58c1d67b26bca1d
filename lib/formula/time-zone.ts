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

import { describe, expect, it } from 'vitest';
import { instantOfLocalTime } from './time-zone';

describe('instantOfLocalTime', () => {
  it('reads a wall-clock time in the zone', () => {
    expect(instantOfLocalTime({ year: 2026, month: 7, day: 1, hour: 9 }, 'Europe/Berlin').toISOString()).toBe(
      '2026-07-01T07:00:00.000Z',
    );
    expect(instantOfLocalTime({ year: 2026, month: 1, day: 1 }, 'America/New_York').toISOString()).toBe(
      '2026-01-01T05:00:00.000Z',
    );
    expect(instantOfLocalTime({ year: 2026, month: 1, day: 1 }, 'UTC').toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
  });

  it('takes the first of a time the clock goes through twice', () => {
    expect(
      instantOfLocalTime(
        { year: 2026, month: 10, day: 25, hour: 2, minute: 30 },
        'Europe/Berlin',
      ).toISOString(),
    ).toBe('2026-10-25T00:30:00.000Z');
  });

  it('moves a time the clock skips on by the change', () => {
    expect(
      instantOfLocalTime(
        { year: 2026, month: 3, day: 29, hour: 2, minute: 30 },
        'Europe/Berlin',
      ).toISOString(),
    ).toBe('2026-03-29T01:30:00.000Z');
  });

  it('handles zones with offsets in half hours and across the date line', () => {
    expect(instantOfLocalTime({ year: 2026, month: 5, day: 1 }, 'Asia/Kolkata').toISOString()).toBe(
      '2026-04-30T18:30:00.000Z',
    );
    expect(instantOfLocalTime({ year: 2026, month: 5, day: 1 }, 'Pacific/Kiritimati').toISOString()).toBe(
      '2026-04-30T10:00:00.000Z',
    );
  });
});

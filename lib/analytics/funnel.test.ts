import { describe, expect, it } from 'vitest';
import { dropOff, funnelRows } from './funnel';
import type { FlowAnalytics } from './query';
import { dayInZone } from './query';

const analytics: FlowAnalytics = {
  version: 1,
  from: '2026-11-01',
  to: '2026-11-30',
  stoppedAfterMinutes: 60,
  includeTests: false,
  blocks: [
    { blockId: 1, entries: 300, clients: 200, stopped: 20, allVersions: { entries: 300, clients: 200 } },
    { blockId: 2, entries: 120, clients: 100, stopped: 50, allVersions: { entries: 120, clients: 100 } },
  ],
  arrows: [],
  stages: [{ stageId: 7, entries: 30, clients: 25 }],
  submissions: [{ blockId: 3, entries: 12, clients: 10 }],
  behind: false,
};

describe('funnel', () => {
  it('gives each step its clients and its share of the step before and of the first', () => {
    const rows = funnelRows(analytics, [
      { kind: 'block', id: 1 },
      { kind: 'block', id: 2 },
      { kind: 'stage', id: 7 },
      { kind: 'submission', id: 3 },
    ]);
    expect(rows.map((r) => [r.clients, r.ofPrevious, r.ofFirst])).toEqual([
      [200, null, null],
      [100, 0.5, 0.5],
      [25, 0.25, 0.125],
      [10, 0.4, 0.05],
    ]);
  });

  it('has no share after a step nobody reached', () => {
    const rows = funnelRows(analytics, [
      { kind: 'block', id: 9 },
      { kind: 'block', id: 1 },
    ]);
    expect(rows.map((r) => [r.clients, r.ofPrevious, r.ofFirst])).toEqual([
      [0, null, null],
      [200, null, null],
    ]);
  });

  it('colours a block by the share of its clients who stopped there', () => {
    expect(dropOff(analytics.blocks[1])).toBe(0.5);
    expect(dropOff({ clients: 0, stopped: 3 })).toBe(0);
    expect(dropOff({ clients: 2, stopped: 5 })).toBe(1);
  });
});

describe('days', () => {
  it("counts back from the project's own day, not the browser's", () => {
    const late = new Date('2026-05-01T22:30:00Z'); // already 2 May in Vladivostok (UTC+10)
    expect(dayInZone(late, 'UTC')).toBe('2026-05-01');
    expect(dayInZone(late, 'Asia/Vladivostok')).toBe('2026-05-02');
    expect(dayInZone(late, 'Asia/Vladivostok', 29)).toBe('2026-04-03');
    expect(dayInZone(new Date('2026-03-01T01:00:00Z'), 'America/New_York', 0)).toBe('2026-02-28');
  });
});

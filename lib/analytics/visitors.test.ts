import { describe, expect, it } from 'vitest';
import {
  clientHash,
  countVisitors,
  mergeVisitors,
  noVisitors,
  visitorsFromHex,
  visitorsOf,
  visitorsToHex,
} from './visitors';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('visitors', () => {
  it('hashes distinct ids to distinct values', () => {
    const hashes = new Set(range(1, 100_001).map(clientHash));
    expect(hashes.size).toBe(100_000);
  });

  it('counts a small set exactly, however the days overlap', () => {
    const monday = visitorsOf([1, 2, 3, 3]);
    const tuesday = visitorsOf([3, 4]);
    expect(countVisitors(monday)).toBe(3);
    expect(countVisitors(mergeVisitors([monday, tuesday]))).toBe(4);
    expect(countVisitors(mergeVisitors([]))).toBe(0);
    expect(countVisitors(noVisitors())).toBe(0);
  });

  it('stays exact up to 255 clients and becomes 1,024 registers past them', () => {
    expect(visitorsOf(range(0, 255))).toHaveLength(1020);
    expect(countVisitors(visitorsOf(range(0, 255)))).toBe(255);
    expect(visitorsOf(range(0, 256))).toHaveLength(1024);
  });

  it('estimates large sets within a few per cent, merged across days', () => {
    for (const perDay of [10, 200, 7_000]) {
      // Thirty days, each with its own clients and a third of the day before's again.
      const days = range(0, 30).map((d) =>
        range(0, perDay).map((i) => (i % 3 === 0 && d > 0 ? (d - 1) * perDay + i : d * perDay + i)),
      );
      const truth = new Set(days.flat()).size;
      const estimate = countVisitors(mergeVisitors(days.map(visitorsOf)));
      expect(Math.abs(estimate - truth) / truth).toBeLessThan(0.08);
    }
  });

  it('a merge of exact and dense sets counts each client once', () => {
    const big = visitorsOf(range(0, 10_000));
    const merged = mergeVisitors([big, visitorsOf(range(0, 100)), big]);
    expect(merged).toEqual(big);
  });

  it('round-trips through hex, the form the database stores', () => {
    const v = visitorsOf([7, 8, 9]);
    expect(visitorsFromHex(visitorsToHex(v))).toEqual(v);
  });
});

import { expect, it } from 'vitest';
import { INDEXING_REFRESH_MS, indexingRefresh } from './indexing-status';

it('refreshes the documents while one is indexing, and stops once none is', () => {
  expect(indexingRefresh(undefined)).toBe(false);
  expect(indexingRefresh([{ status: 'ready' }, { status: 'failed' }])).toBe(false);
  expect(indexingRefresh([{ status: 'ready' }, { status: 'indexing' }])).toBe(INDEXING_REFRESH_MS);
});

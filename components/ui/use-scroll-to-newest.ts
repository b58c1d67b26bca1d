'use client';

import { type RefObject, useLayoutEffect } from 'react';

/**
 * A conversation shown newest at the bottom: whenever its newest message changes (the first
 * page arriving, a message sent or received), the scroller shows the bottom. Before paint, so a
 * long history never flashes at its top.
 */
export function useScrollToNewest(
  scroller: RefObject<HTMLElement | null>,
  newestKey: string | number | undefined,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest message changes
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && newestKey !== undefined) el.scrollTop = el.scrollHeight;
  }, [newestKey]);
}

'use client';

import { startTransition, useEffect, useState } from 'react';

/**
 * False on the first render, then true in a transition: for parts of the page that may appear a
 * moment later, so they hold up neither the first paint nor input (React renders a transition
 * in slices and lets clicks in between).
 */
export function useDeferredMount(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
  return mounted;
}

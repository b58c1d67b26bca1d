'use client';

import { useCallback, useEffect, useState } from 'react';
import { browserStorage } from './browser-storage';

const KEY = 'blockbot:pointers-shown';

/** Whether this browser shows the other designers' pointers (off until asked; remembered). */
export function usePointersShown() {
  const [shown, setShown] = useState(() => browserStorage()?.getItem(KEY) === 'true');
  useEffect(() => {
    try {
      browserStorage()?.setItem(KEY, String(shown));
    } catch {
      // Full or refused: the choice holds for this page only.
    }
  }, [shown]);
  const toggle = useCallback(() => setShown((before) => !before), []);
  return { shown, toggle };
}

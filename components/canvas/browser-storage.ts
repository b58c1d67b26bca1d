'use client';

/** This browser's localStorage, or null where it is refused (a locked-down browser). */
export function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTRPCClient } from '@/components/trpc/client';
import { livePresences, PRESENCE_BEAT_MS, type Presence } from '@/lib/schema/draft-presence';

/** How long a new selection waits before it is told (a drag across blocks sends once). */
const SELECTION_DELAY_MS = 250;

/**
 * Who else has the bot open and what each has selected (docs/builder.md, "Working together"),
 * and this canvas's own presence told to them: when its selection changes, every
 * PRESENCE_BEAT_MS, at once to someone who just arrived, and `left` when the canvas closes.
 */
export function usePresence(projectId: number, selection: readonly number[], sending: boolean) {
  const client = useTRPCClient();
  const [tab] = useState(() => crypto.randomUUID());
  const [seen, setSeen] = useState(() => new Map<string, { presence: Presence; at: number }>());
  const [now, setNow] = useState(() => Date.now());
  const latestSelection = useRef(selection);
  latestSelection.current = selection;

  const send = useCallback(
    (left = false) => {
      if (!sending) return;
      void client.botSchema.presence
        .mutate({ projectId, tab, selection: left ? [] : [...latestSelection.current], pointer: null, left })
        .catch(() => {});
    },
    [client, projectId, tab, sending],
  );

  const known = useRef(new Set<string>());
  const onPresence = useCallback(
    (presence: Presence) => {
      if (presence.tab === tab) return;
      // Someone new: they hear of this canvas now, not at its next beat.
      if (!known.current.has(presence.tab) && !presence.left) send();
      known.current.add(presence.tab);
      setSeen((prev) => new Map(prev).set(presence.tab, { presence, at: Date.now() }));
    },
    [tab, send],
  );

  const selectionKey = selection.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: selectionKey is the selection, by value.
  useEffect(() => {
    const timer = setTimeout(() => send(), SELECTION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [selectionKey, send]);

  useEffect(() => {
    const beat = setInterval(() => {
      send();
      setNow(Date.now());
    }, PRESENCE_BEAT_MS);
    const leave = () => send(true);
    window.addEventListener('pagehide', leave);
    return () => {
      clearInterval(beat);
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [send]);

  return { others: livePresences(seen, now), onPresence };
}

'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTRPCClient } from '@/components/trpc/client';
import {
  livePresences,
  PRESENCE_BEAT_MS,
  type Presence,
  pointersWanted,
  presenceNews,
} from '@/lib/schema/draft-presence';
import { throttle } from '@/lib/throttle';
import { createPointerStore } from './pointer-store';

/** How long a new selection waits before it is told (a drag across blocks sends once). */
const SELECTION_DELAY_MS = 250;
/** A shared pointer is sent at most 8 times a second. */
const POINTER_INTERVAL_MS = 125;

/**
 * Who else has the bot open and what each has selected (docs/builder.md, "Working together"),
 * and this canvas's own presence told to them: when its selection changes, every
 * PRESENCE_BEAT_MS, at once to someone who just arrived, and `left` when the canvas closes.
 * Its pointer (`pointerMoved`, flow coordinates, null off the canvas) goes with it, throttled,
 * only while someone present asks to see pointers; `wantsPointers` is this canvas asking.
 */
export function usePresence(
  projectId: number,
  selection: readonly number[],
  sending: boolean,
  wantsPointers: boolean,
) {
  const client = useTRPCClient();
  const [tab] = useState(() => crypto.randomUUID());
  const [seen, setSeen] = useState(() => new Map<string, { presence: Presence; at: number }>());
  const [pointers] = useState(createPointerStore);
  const [now, setNow] = useState(() => Date.now());
  const latestSelection = useRef(selection);
  latestSelection.current = selection;
  const latestWants = useRef(wantsPointers);
  latestWants.current = wantsPointers;
  const latestPointer = useRef<{ x: number; y: number } | null>(null);
  const sharing = useRef(false);

  const send = useCallback(
    (left = false) => {
      if (!sending) return;
      void client.botSchema.presence
        .mutate({
          projectId,
          tab,
          selection: left ? [] : [...latestSelection.current],
          pointer: left || !sharing.current ? null : latestPointer.current,
          wantsPointers: latestWants.current,
          left,
        })
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
      pointers.set(presence.tab, presence.left ? null : presence.pointer);
      const at = Date.now();
      setSeen((prev) =>
        presenceNews(prev.get(presence.tab), presence, at)
          ? new Map(prev).set(presence.tab, { presence: { ...presence, pointer: null }, at })
          : prev,
      );
    },
    [tab, send, pointers],
  );

  const selectionKey = selection.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: selectionKey is the selection, by value.
  useEffect(() => {
    const timer = setTimeout(() => send(), SELECTION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [selectionKey, wantsPointers, send]);

  // Pointers hidden here are forgotten: shown again, each comes with its owner's next send.
  useEffect(() => {
    if (!wantsPointers) pointers.clear();
  }, [wantsPointers, pointers]);

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

  const others = livePresences(seen, now);
  const shared = pointersWanted(others);
  // Someone asks to see pointers: they get this one at once, wherever it is (null off the canvas).
  useEffect(() => {
    sharing.current = shared;
    if (shared) send();
  }, [shared, send]);

  const pointerSend = useMemo(() => throttle(() => send(), POINTER_INTERVAL_MS), [send]);
  useEffect(() => pointerSend.cancel, [pointerSend]);
  const pointerMoved = useCallback(
    (point: { x: number; y: number } | null) => {
      latestPointer.current = point;
      if (sharing.current) pointerSend.call();
    },
    [pointerSend],
  );

  return { others, onPresence, pointers, pointerMoved };
}

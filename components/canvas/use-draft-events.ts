'use client';

import { useEffect, useRef } from 'react';
import type { Presence } from '@/lib/schema/draft-presence';

/**
 * The builder's live stream (server/projects/draft-stream.ts), one per canvas: `onRevision` when
 * the draft has a new revision (and on connecting again, with none: anything may have been
 * missed), `onPresence` when another designer's selection or pointer moves, `onLost` when the
 * stream drops (the browser connects again by itself).
 */
export function useDraftEvents(
  projectId: number,
  handlers: {
    onRevision(revision: number | undefined): void;
    onPresence(presence: Presence): void;
    onLost(): void;
  },
) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const source = new EventSource(`/api/projects/${projectId}/bot/events`);
    const onRevision = (event: MessageEvent<string>) =>
      latest.current.onRevision((JSON.parse(event.data) as { revision?: number }).revision);
    for (const kind of ['bot', 'ready', 'resync']) source.addEventListener(kind, onRevision);
    source.addEventListener('presence', (event: MessageEvent<string>) =>
      latest.current.onPresence(JSON.parse(event.data) as Presence),
    );
    source.addEventListener('error', () => latest.current.onLost());
    return () => source.close();
  }, [projectId]);
}

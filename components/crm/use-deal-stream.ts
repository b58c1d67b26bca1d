'use client';

import { useEffect, useRef } from 'react';

/**
 * The deals board's live events (server/crm/deal-stream.ts): `onChanged` when a deal moved or
 * closed, a client's assignment changed, and after (re)connecting or lost events.
 */
export function useDealStream(projectId: number, onChanged: () => void) {
  const latest = useRef(onChanged);
  latest.current = onChanged;
  useEffect(() => {
    const source = new EventSource(`/api/projects/${projectId}/deals/events`);
    for (const kind of ['deal', 'client', 'ready', 'resync'])
      source.addEventListener(kind, () => latest.current());
    return () => source.close();
  }, [projectId]);
}

'use client';

import { useEffect, useRef } from 'react';
import type { HistoryMessage } from '@/lib/history-message';

export interface InboxStreamHandlers {
  /** A message of the open conversation, new or with its delivery state changed. */
  onMessage(message: HistoryMessage): void;
  /** Something of a conversation changed; `null`: anything may have (reconnected, resync). */
  onChanged(clientId: number | null): void;
}

/**
 * The inbox's live events (server/inbox/inbox-stream.ts) for the project and the open
 * conversation. EventSource reconnects by itself and sends the last message id it got, so the
 * server resumes from there; a new open conversation is a new stream.
 */
export function useInboxStream(projectId: number, clientId: number | null, handlers: InboxStreamHandlers) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const query = clientId ? `?clientId=${clientId}` : '';
    const source = new EventSource(`/api/projects/${projectId}/inbox/events${query}`);
    source.addEventListener('message', (e) => {
      const { message } = JSON.parse((e as MessageEvent<string>).data) as { message: HistoryMessage };
      latest.current.onMessage(message);
    });
    source.addEventListener('changed', (e) => {
      const { clientId: changed } = JSON.parse((e as MessageEvent<string>).data) as { clientId: number };
      latest.current.onChanged(changed);
    });
    // After (re)connecting and after lost events, everything shown is read again.
    for (const kind of ['ready', 'resync'])
      source.addEventListener(kind, () => latest.current.onChanged(null));
    return () => source.close();
  }, [projectId, clientId]);
}

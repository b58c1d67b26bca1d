import { publishLive } from '@/server/live/live-events';

/** The longest draft an event carries: pg_notify takes 8,000 bytes, and a letter may take 3. */
export const DRAFT_MAX_CHARS = 2000;
/** Drafts at most this often: a fast model writes many deltas a second. */
const DRAFT_INTERVAL_MS = 150;

/**
 * The `onText` of a streamed AI answer for a client whose channel shows the bot typing (the
 * chat widget): the text so far as `draft` live events, at most one per interval and the last
 * one always, cut at DRAFT_MAX_CHARS. A call that failed after some text (an error event
 * mid-stream) ends with an empty draft: the half written is no answer, and is not left shown.
 */
export function draftPublisher(
  projectId: number,
  clientId: number,
): { onText: (delta: string) => void; end: (failed?: boolean) => void } {
  let text = '';
  let last = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  const publish = () => {
    timer = null;
    last = performance.now();
    const shown = text.length > DRAFT_MAX_CHARS ? `${text.slice(0, DRAFT_MAX_CHARS)}…` : text;
    publishLive([{ kind: 'draft', projectId, clientId, text: shown }]);
  };
  return {
    onText(delta) {
      text += delta;
      if (timer) return;
      const wait = DRAFT_INTERVAL_MS - (performance.now() - last);
      if (wait <= 0) publish();
      else timer = setTimeout(publish, wait);
    },
    end(failed = false) {
      if (timer) clearTimeout(timer);
      if (failed && text) {
        text = '';
        publish();
      } else if (timer) publish();
    },
  };
}

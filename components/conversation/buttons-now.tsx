import { messageWithCurrentButtons } from '@/lib/current-buttons';
import type { HistoryMessage } from '@/lib/history-message';
import type { Button } from '@/lib/schema';

/** A reply button: kept below the chat (inline ones and links stay on their own message). */
const isReply = (b: Button) => b.type !== 'inline' && !b.url;

/**
 * The reply buttons the client can press now (lib/current-buttons.ts), under the conversation:
 * an operator sees the menu the client still has after a reminder or their own reply.
 */
export function ButtonsNow({
  messages,
  currentBlockId,
}: {
  messages: HistoryMessage[];
  currentBlockId: number | null;
}) {
  const message = messageWithCurrentButtons(messages, currentBlockId, (m) => m.buttons.some(isReply));
  if (!message) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center justify-end gap-1 text-xs text-slate-500">
      <span>The client's buttons now:</span>
      <ul className="flex flex-wrap gap-1" aria-label="The client's buttons now">
        {message.buttons.filter(isReply).map((b) => (
          <li key={b.text} className="rounded border border-sky-300 bg-white px-2 py-0.5 text-sky-800">
            {b.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

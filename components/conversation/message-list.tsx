import { cn } from '@/components/ui/cn';
import {
  type DeliveryStatus,
  type HistoryMessage,
  messageSender,
  messageSource,
} from '@/lib/history-message';
import type { Attachment, Button } from '@/lib/schema';

/**
 * A client's conversation, oldest first: the client's messages on the left, the bot's and the
 * operators' on the right, system messages (callbacks, never shown to the client) across the
 * middle. Each is labelled with its sender (`messageSender`: the client by `clientName`, "Bot",
 * the operator by name). Every text is React text, never markup; only http(s) addresses become
 * links or images.
 */
export function MessageList({ messages, clientName }: { messages: HistoryMessage[]; clientName: string }) {
  if (!messages.length) return <p className="py-6 text-center text-sm text-slate-500">No messages yet.</p>;
  return (
    <ol className="flex flex-col gap-2" aria-label="Messages">
      {messages.map((m) => (
        <MessageItem key={m.id} message={m} clientName={clientName} />
      ))}
    </ol>
  );
}

function MessageItem({ message: m, clientName }: { message: HistoryMessage; clientName: string }) {
  const sender = messageSender(m, clientName);
  const failed = m.status === 'failed';
  return (
    <li
      className={cn(
        'flex min-w-0 flex-col gap-1',
        sender.system ? 'items-center' : m.direction === 'in' ? 'items-start' : 'items-end',
      )}
      data-direction={m.direction}
      data-source={messageSource(m)}
      data-sender={sender.kind}
    >
      <div
        className={cn(
          'max-w-[85%] min-w-0 rounded-lg px-3 py-1.5 text-sm shadow-sm sm:max-w-[70%]',
          sender.system
            ? 'border border-dashed border-slate-300 bg-slate-50 text-slate-700 shadow-none'
            : m.direction === 'in'
              ? 'rounded-bl-none bg-white text-slate-900'
              : sender.kind === 'operator'
                ? 'rounded-br-none bg-emerald-50 text-slate-900'
                : 'rounded-br-none bg-sky-100 text-slate-900',
          failed && 'ring-1 ring-red-300',
        )}
      >
        <p className="mb-0.5 text-[11px] font-semibold text-slate-500" data-testid="sender">
          <span title={sender.hint}>{sender.system ? `System message · ${sender.label}` : sender.label}</span>
        </p>
        {m.attachments.length ? <Attachments attachments={m.attachments} /> : null}
        {m.text ? <p className="break-words whitespace-pre-wrap">{m.text}</p> : null}
        {m.buttons.length ? <Buttons buttons={m.buttons} /> : null}
      </div>
      <p
        className={cn(
          'flex flex-wrap items-center gap-1.5 px-1 text-[11px] text-slate-500',
          // A long error wraps under its own message, on the message's side.
          m.direction === 'out' && 'justify-end text-right',
        )}
      >
        <time dateTime={new Date(m.createdAt).toISOString()}>{new Date(m.createdAt).toLocaleString()}</time>
        {m.direction === 'out' ? <DeliveryState message={m} /> : null}
      </p>
    </li>
  );
}

/** What each delivery status reads as under an outgoing message, and what it means. */
const DELIVERY_LABELS: Record<
  Exclude<DeliveryStatus, 'failed'>,
  { label: string; hint: string; className?: string }
> = {
  queued: { label: 'sending…', hint: 'Waiting for the messenger to take it' },
  sent: { label: 'sent', hint: 'The messenger took it' },
  delivered: { label: 'delivered', hint: "On the client's device", className: 'text-emerald-700' },
  read: { label: 'read', hint: 'The client opened it', className: 'font-medium text-sky-700' },
};

function DeliveryState({ message: m }: { message: HistoryMessage }) {
  // Every outgoing message has one (incoming ones have none).
  const status = m.status ?? 'queued';
  if (status === 'failed')
    return (
      <span className="text-red-700" role="status" data-status="failed">
        · not delivered: {m.error ?? 'the messenger gave no reason'}
      </span>
    );
  // A held send (its channel could not take it yet): queued with the reason, tried again later.
  if (status === 'queued' && m.error)
    return (
      <span className="text-amber-700" title="Tried again later, in order" data-status="held">
        · not sent yet: {m.error}
      </span>
    );
  const { label, hint, className } = DELIVERY_LABELS[status];
  return (
    <span className={className} title={hint} data-status={status}>
      · {label}
      {/* A channel's note on a message it sent otherwise than written (e.g. as a template). */}
      {m.error ? ` · ${m.error}` : null}
    </span>
  );
}

/** Only web addresses are followed: a stored `javascript:` or data URL stays text. */
function webUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function Attachments({ attachments }: { attachments: Attachment[] }) {
  return (
    <ul className="mb-1 flex flex-col gap-1">
      {attachments.map((a, i) => {
        const href = webUrl(a.url);
        return (
          // Attachments of one message never reorder: the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i} className="min-w-0">
            {href && a.type === 'image' ? (
              <a href={href} target="_blank" rel="noreferrer noopener" className="block" title={a.url}>
                {/* biome-ignore lint/performance/noImgElement: an outside address, not an optimisable asset */}
                <img src={href} alt="" className="max-h-48 max-w-full rounded" loading="lazy" />
                {/* The address too: an image that does not load still shows where it was. */}
                <span className="block truncate text-xs text-sky-800 underline">{a.url}</span>
              </a>
            ) : (
              <span className="block truncate rounded bg-white/70 px-2 py-1 text-xs text-slate-700">
                {a.type}:{' '}
                {href ? (
                  <a href={href} target="_blank" rel="noreferrer noopener" className="text-sky-800 underline">
                    {a.url}
                  </a>
                ) : (
                  a.url
                )}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Buttons({ buttons }: { buttons: Button[] }) {
  return (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label="Buttons">
      {buttons.map((b, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: buttons of one message never reorder
        <li key={i} className="rounded border border-sky-300 bg-white px-2 py-0.5 text-xs text-sky-800">
          {b.text}
          {b.url ? ' ↗' : ''}
        </li>
      ))}
    </ul>
  );
}

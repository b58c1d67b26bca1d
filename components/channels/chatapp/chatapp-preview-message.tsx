'use client';

import { Fragment, useEffect, useRef, useState } from 'react';
import type { ChannelPreview } from '../channel-preview';
import { type ChatappPreviewBubble, chatappPreview } from './chatapp-preview';

/**
 * One bot message drawn as the chat-app messenger shows it: each Cloud API message a bubble,
 * media as a labelled link with its caption, reply buttons under their bubble, a list opened
 * by its button. Text is React text, never markup.
 */
export function ChatappPreviewMessage({
  bubbles,
  onPress,
}: {
  bubbles: ChatappPreviewBubble[];
  onPress(text: string): void;
}) {
  return (
    <div className="flex max-w-[85%] flex-col gap-1" data-testid="chatapp-out">
      {bubbles.map((b, i) => (
        // Bubbles of one message never reorder: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={i}>
          <div className="rounded-lg rounded-tl-none bg-white px-3 py-1.5 text-sm whitespace-pre-line text-slate-900 shadow-sm">
            {b.media ? (
              <a
                href={b.media.url}
                target="_blank"
                rel="noreferrer"
                className="mb-1 block rounded bg-emerald-50 px-2 py-1 text-xs text-emerald-800 underline"
              >
                {b.media.kind}: {b.media.url}
              </a>
            ) : null}
            {b.text}
          </div>
          {b.replyButtons.length ? (
            <fieldset className="m-0 flex flex-col gap-1 border-0 p-0" aria-label="Reply buttons">
              {b.replyButtons.map((text) => (
                <button key={text} type="button" className={optionClass} onClick={() => onPress(text)}>
                  {text}
                </button>
              ))}
            </fieldset>
          ) : null}
          {b.list ? <ListButton list={b.list} onPress={onPress} /> : null}
        </Fragment>
      ))}
    </div>
  );
}

const optionClass =
  'truncate rounded-lg bg-white px-2 py-1.5 text-center text-sm font-medium text-emerald-700 shadow-sm hover:bg-emerald-50';

function ListButton({
  list,
  onPress,
}: {
  list: { button: string; rows: string[] };
  onPress(text: string): void;
}) {
  const [open, setOpen] = useState(false);
  const rows = useRef<HTMLFieldSetElement>(null);
  // The opened rows come into view, as the messenger's sheet would.
  useEffect(() => {
    if (open) rows.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);
  return (
    <div className="flex flex-col gap-1">
      <button type="button" className={optionClass} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        ☰ {list.button}
      </button>
      {open ? (
        <fieldset
          ref={rows}
          className="m-0 flex flex-col divide-y divide-slate-100 rounded-lg border-0 bg-white p-0 shadow-sm"
          aria-label="List"
        >
          {list.rows.map((text) => (
            <button
              key={text}
              type="button"
              className="px-3 py-1.5 text-left text-sm text-slate-900 hover:bg-slate-50"
              onClick={() => onPress(text)}
            >
              {text}
            </button>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}

/** The simulator's "Preview as: chat app" (components/channels/previews.ts). */
export const chatappChannelPreview: ChannelPreview = {
  label: 'chat app',
  background: 'bg-amber-50',
  message: (content, onPress) => (
    <ChatappPreviewMessage bubbles={chatappPreview(content)} onPress={onPress} />
  ),
};

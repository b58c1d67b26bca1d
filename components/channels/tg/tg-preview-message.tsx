'use client';

import { Fragment } from 'react';
import type { ChannelPreview } from '../channel-preview';
import { type TgPreviewBubble, type TgPreviewButton, tgPreview } from './tg-preview';

/**
 * One bot message drawn as the tg messenger shows it: each Bot API call a bubble, media as a
 * labelled link with its caption, the inline keyboard under its bubble. Text is React text,
 * never markup.
 */
export function TgPreviewMessage({
  bubbles,
  onPress,
}: {
  bubbles: TgPreviewBubble[];
  onPress(text: string): void;
}) {
  return (
    <div className="flex max-w-[85%] flex-col gap-1" data-testid="tg-out">
      {bubbles.map((b, i) => (
        // Bubbles of one message never reorder: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={i}>
          <div className="rounded-lg rounded-bl-none bg-white px-3 py-1.5 text-sm whitespace-pre-line text-slate-900 shadow-sm">
            {b.media ? (
              <a
                href={b.media.url}
                target="_blank"
                rel="noreferrer"
                className="mb-1 block rounded bg-sky-50 px-2 py-1 text-xs text-sky-800 underline"
              >
                {b.media.kind}: {b.media.url}
              </a>
            ) : null}
            {b.text}
          </div>
          {b.inlineKeyboard.length ? (
            <fieldset className="m-0 flex flex-col gap-1 border-0 p-0" aria-label="Inline keyboard">
              {b.inlineKeyboard.map((row) => (
                <div key={row.map((k) => k.text).join('\n')} className="flex gap-1">
                  {row.map((k) => (
                    <InlineButton key={k.text} button={k} onPress={onPress} />
                  ))}
                </div>
              ))}
            </fieldset>
          ) : null}
        </Fragment>
      ))}
    </div>
  );
}

const keyClass =
  'flex-1 truncate rounded-md bg-sky-700/80 px-2 py-1 text-center text-xs font-medium text-white hover:bg-sky-700';

function InlineButton({ button, onPress }: { button: TgPreviewButton; onPress(text: string): void }) {
  if (button.url)
    return (
      <a href={button.url} target="_blank" rel="noreferrer" className={keyClass}>
        {button.text} ↗
      </a>
    );
  return (
    <button type="button" className={keyClass} onClick={() => onPress(button.text)}>
      {button.text}
    </button>
  );
}

/** The reply keyboard, under the input as the messenger shows it. */
export function TgReplyKeyboard({ rows, onPress }: { rows: string[][]; onPress(text: string): void }) {
  return (
    <fieldset className="m-0 flex flex-col gap-1 border-0 bg-slate-100 p-2" aria-label="Reply keyboard">
      {rows.map((row) => (
        <div key={row.join('\n')} className="flex gap-1">
          {row.map((text) => (
            <button
              key={text}
              type="button"
              onClick={() => onPress(text)}
              className="flex-1 truncate rounded-md bg-white px-2 py-1.5 text-center text-sm text-slate-900 shadow-sm hover:bg-slate-50"
            >
              {text}
            </button>
          ))}
        </div>
      ))}
    </fieldset>
  );
}

/** The simulator's "Preview as: tg messenger" (components/channels/previews.ts). */
export const tgChannelPreview: ChannelPreview = {
  label: 'tg messenger',
  background: 'bg-sky-100/60',
  message: (content, onPress) => <TgPreviewMessage bubbles={tgPreview(content).bubbles} onPress={onPress} />,
  footer(contents, onPress) {
    // The messenger keeps a reply keyboard until a later message brings another.
    const rows = contents
      .map((c) => tgPreview(c).replyKeyboard)
      .reverse()
      .find(Boolean);
    return rows ? <TgReplyKeyboard rows={rows} onPress={onPress} /> : null;
  },
};

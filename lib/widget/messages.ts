import { keepsButtons } from '@/lib/current-buttons';
import type { Attachment, Button, Buttons } from '@/lib/schema';

/**
 * A dialog's message as widget.js draws it (what the history and the live stream send): only
 * what the visitor may see, buttons laid out in their rows.
 */
export interface WidgetButton {
  text: string;
  /** What pressing it sends (its callback data, else its text); absent for a link. */
  send?: string;
  url?: string;
}

export interface WidgetMessage {
  id: string;
  from: 'visitor' | 'bot';
  text: string;
  attachments: Attachment[];
  /** Reply buttons, shown under the dialog until a later message brings others or takes them away. */
  replies: WidgetButton[][];
  /**
   * A bot message without reply buttons that leaves those shown (lib/current-buttons.ts): it came
   * from a block the visitor is not in, such as a not-a-state block's answer or an operator.
   */
  keepsReplies: boolean;
  /** Inline and link buttons, attached to the message. */
  inline: WidgetButton[][];
  /** An operator's reply: who wrote it, as the visitor sees them (the name, a photo where set). */
  operator?: { name: string; avatar?: string };
  at: string;
}

export interface StoredDialogMessage {
  id: bigint;
  direction: 'in' | 'out';
  text: string;
  attachments: unknown;
  buttons: unknown;
  createdAt: Date;
  blockId: number | null;
  /** The client's block now. */
  currentBlockId: number | null;
  /** An operator's reply's sender (their name, never their e-mail); null for anything else. */
  operatorName: string | null;
  operatorAvatar: string | null;
}

/** Rows by `line`, each ordered by `index_in_line`; buttons with no line each get their own row. */
function rows(buttons: Button[]): WidgetButton[][] {
  const lines = new Map<number, Button[]>();
  buttons.forEach((b, i) => {
    const line = b.line ?? 1_000_000 + i;
    lines.set(line, [...(lines.get(line) ?? []), b]);
  });
  return [...lines.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) =>
      row
        .sort((a, b) => (a.index_in_line ?? 0) - (b.index_in_line ?? 0))
        .map((b) =>
          b.url ? { text: b.text, url: safeUrl(b.url) } : { text: b.text, send: b.callback_data || b.text },
        ),
    );
}

const listOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** Links a page may open: http(s) only, so a `javascript:` address never reaches an href. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function operatorOf(name: string, avatar: string | null): { name: string; avatar?: string } {
  const url = safeUrl(avatar ?? undefined);
  return url ? { name, avatar: url } : { name };
}

export function toWidgetMessage(row: StoredDialogMessage): WidgetMessage {
  const stored = row.buttons as Buttons | null;
  const buttons = listOf<Button>(Array.isArray(stored) ? stored : stored?.buttons);
  const hint = stored && !Array.isArray(stored) ? stored.hint : '';
  return {
    id: String(row.id),
    from: row.direction === 'in' ? 'visitor' : 'bot',
    text: hint && !row.text ? hint : row.text,
    attachments: listOf<Attachment>(row.attachments).flatMap((a) => {
      const url = safeUrl(a.url);
      return url ? [{ type: a.type, url }] : [];
    }),
    replies: rows(buttons.filter((b) => b.type !== 'inline' && !b.url)),
    inline: rows(buttons.filter((b) => b.type === 'inline' || b.url)),
    keepsReplies: row.direction === 'out' && keepsButtons(row.blockId, row.currentBlockId),
    ...(row.operatorName === null ? {} : { operator: operatorOf(row.operatorName, row.operatorAvatar) }),
    at: row.createdAt.toISOString(),
  };
}

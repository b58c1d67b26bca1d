import type { WidgetMessage } from '../lib/widget/messages';
import { type Dialog, sendWithRetry, WidgetApiError, widgetApi } from './api';
import { openLive } from './live';
import { createPanel } from './panel';

/**
 * widget.js: `<script src="{BLOCKBOT_BASE_URL}/widget.js" data-channel="<key>" async>`. Draws the
 * channel's chat on the page; the dialog (recipient and token) is kept in localStorage, so a
 * reload or another page of the site continues it. The page gets `window.Blockbot`:
 * `recipient`, `onReady(fn)`, `identify({name, tag, variables})`, and a `blockbot:ready` event.
 */

interface Identity {
  name?: string;
  tag?: string;
  variables?: Record<string, string | number | boolean>;
}

interface BlockbotApi {
  recipient: string | null;
  onReady(fn: (recipient: string) => void): void;
  identify(who: Identity): Promise<void>;
  open(): void;
}

declare global {
  interface Window {
    Blockbot?: BlockbotApi;
  }
}

const script = document.currentScript as HTMLScriptElement | null;

async function start(script: HTMLScriptElement) {
  const key = script.dataset.channel ?? '';
  const base = new URL(script.src).origin;
  const api = widgetApi(base, key);
  const storageKey = `blockbot:${key}`;
  const readStored = (): Dialog | null => {
    try {
      return JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    } catch {
      return null;
    }
  };
  let dialog = readStored();
  const waiting: ((recipient: string) => void)[] = [];
  const Blockbot: BlockbotApi = {
    recipient: dialog?.recipient ?? null,
    onReady(fn) {
      if (Blockbot.recipient) fn(Blockbot.recipient);
      else waiting.push(fn);
    },
    identify: async (who) => {
      const { token } = await ensureDialog();
      await api.identify(token, who);
    },
    open: () => openPanel(),
  };
  let openPanel = () => {};
  window.Blockbot = Blockbot;
  const ready = (recipient: string) => {
    Blockbot.recipient = recipient;
    for (const fn of waiting.splice(0)) fn(recipient);
    window.dispatchEvent(new CustomEvent('blockbot:ready', { detail: { recipient } }));
  };

  let lastId = '0';
  let stopLive: (() => void) | null = null;
  let opening: Promise<Dialog> | null = null;
  // A site the channel does not allow gets nothing drawn (the server answers it nothing).
  const config = await api.config().catch(() => null);
  if (!config) return;

  function ensureDialog(): Promise<Dialog> {
    if (dialog) return Promise.resolve(dialog);
    opening ??= api.open().then((opened) => {
      dialog = opened;
      localStorage.setItem(storageKey, JSON.stringify(opened));
      ready(opened.recipient);
      return opened;
    });
    opening.catch(() => {
      opening = null;
    });
    return opening;
  }

  const show = (message: WidgetMessage, live = false) => {
    panel.show(message, live);
    if (BigInt(message.id) > BigInt(lastId)) lastId = message.id;
  };

  /** The first message shown, while earlier ones remain (the history is paged by id). */
  let earliest: string | null = null;
  let loadingEarlier = false;
  async function showEarlier() {
    if (!dialog || !earliest || loadingEarlier) return;
    loadingEarlier = true;
    try {
      const page = await api.messages(dialog.token, earliest);
      panel.earlier(page.messages);
      earliest = page.more ? (page.messages[0]?.id ?? null) : null;
    } catch (error) {
      panel.status((error as Error).message);
    } finally {
      loadingEarlier = false;
    }
  }

  /** The history, then the live stream from its last message. */
  async function connect(current: Dialog) {
    if (stopLive) return;
    stopLive = () => {};
    try {
      const { messages, more } = await api.messages(current.token);
      for (const m of messages) show(m);
      earliest = more ? (messages[0]?.id ?? null) : null;
    } catch (error) {
      stopLive = null;
      if (error instanceof WidgetApiError && error.status === 401) return forget();
      panel.status((error as Error).message);
      return;
    }
    stopLive = openLive(api.streamUrl, current.token, () => lastId, {
      event(name, data) {
        if (name === 'message') show(JSON.parse(data), true);
        else if (name === 'typing') panel.typing(JSON.parse(data).on);
        else if (name === 'draft') panel.draft(JSON.parse(data).text);
      },
      gone: forget,
    });
  }

  /** The dialog is gone (its widget was deleted and made again): the next message opens a new one. */
  function forget() {
    stopLive?.();
    stopLive = null;
    dialog = null;
    earliest = null;
    localStorage.removeItem(storageKey);
    panel.clear();
  }

  const panel = createPanel(config, {
    opened() {
      if (dialog) void connect(dialog);
    },
    scrolledToTop: () => void showEarlier(),
    async send(text) {
      panel.status('');
      const undo = panel.pending(text);
      try {
        const current = await ensureDialog();
        void connect(current);
        await sendWithRetry((id) => api.send(current.token, text, id));
      } catch (error) {
        undo();
        panel.status((error as Error).message);
      }
    },
    async attach(file, caption) {
      panel.status('');
      const sending = panel.pendingFile(file, caption);
      try {
        const current = await ensureDialog();
        void connect(current);
        const sent = await sendWithRetry((id) => api.upload(current.token, file, id, caption));
        sending.sent(sent.file.url);
      } catch (error) {
        sending.failed();
        panel.status((error as Error).message);
      }
    },
  });
  panel.mount();
  openPanel = panel.open;
  if (dialog) {
    ready(dialog.recipient);
    // Replies that came while the visitor was on another page show the unread dot.
    void connect(dialog);
  }
}

if (script?.dataset.channel && !window.Blockbot) {
  if (document.body) void start(script);
  else document.addEventListener('DOMContentLoaded', () => void start(script));
}

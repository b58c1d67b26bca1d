import { ALLOWED_FILE_TYPES, formatFileSize, MAX_FILE_BYTES } from '../lib/files/file-types';
import type { WidgetMessage } from '../lib/widget/messages';
import type { WidgetPublicConfig } from '../lib/widget/settings';
import { ATTACH_ICON, CHAT_ICON, CLOSE_ICON, h, icon } from './dom';
import { buttonRows, messageView } from './messages-view';
import { STYLES } from './styles';

export interface PanelEvents {
  opened(): void;
  send(text: string): void;
  /** A file picked, pasted or dropped, with what was typed as its caption. */
  attach(file: File, caption: string): void;
  /** The visitor scrolled to the top of the messages: show the earlier ones, if any. */
  scrolledToTop(): void;
}

/**
 * The bubble and the dialog panel in a shadow root: a labelled dialog with a live log, Escape
 * and the close button put the focus back on the bubble, the input gets it on opening.
 */
export function createPanel(config: WidgetPublicConfig, on: PanelEvents) {
  const host = document.createElement('blockbot-widget');
  // Inline and important: the page's own rules (even `* { all: unset }`) cannot move or hide it.
  host.setAttribute('style', 'all:initial!important;display:block!important;position:static!important');
  const shadow = host.attachShadow({ mode: 'open' });
  const style = h('style');
  style.textContent = STYLES;
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const root = h('div', { class: `root ${config.position}` });
  root.style.setProperty('--accent', config.accentColor);
  root.style.setProperty('--on-accent', config.textColor);
  const applyTheme = () =>
    root.classList.toggle('dark', config.theme === 'dark' || (config.theme === 'auto' && dark.matches));
  applyTheme();
  dark.addEventListener('change', applyTheme);

  const dot = h('span', { class: 'dot', hidden: '' });
  const bubble = h('button', {
    class: 'bubble',
    type: 'button',
    'aria-label': `Open chat: ${config.title}`,
    'aria-expanded': 'false',
  });
  bubble.append(icon(CHAT_ICON), dot);
  const title = h('h2', { id: 'bb-title' }, config.title);
  const close = h('button', { class: 'close', type: 'button', 'aria-label': 'Close chat' }, icon(CLOSE_ICON));
  const log = h('div', {
    class: 'log',
    role: 'log',
    'aria-live': 'polite',
    'aria-relevant': 'additions',
    'aria-label': 'Messages',
  });
  if (config.greeting) log.append(h('p', { class: 'greeting' }, config.greeting));
  const typing = h('div', { class: 'typing', role: 'status', hidden: '' }, '…');
  typing.setAttribute('aria-label', 'The bot is typing');
  const replies = h('div', { class: 'replies' });
  const status = h('p', { class: 'status', role: 'alert' });
  const input = h('textarea', {
    'aria-label': 'Your message',
    placeholder: 'Write a message…',
    maxlength: '4000',
    rows: '1',
  });
  const send = h('button', { class: 'send', type: 'button' }, 'Send');
  const attach = h(
    'button',
    { class: 'attach', type: 'button', 'aria-label': 'Attach a file', title: 'Attach a file' },
    icon(ATTACH_ICON),
  );
  const picker = h('input', {
    type: 'file',
    accept: ALLOWED_FILE_TYPES.join(','),
    hidden: '',
    tabindex: '-1',
  });
  const panel = h(
    'div',
    { class: 'panel', role: 'dialog', 'aria-labelledby': 'bb-title', hidden: '' },
    h('div', { class: 'head' }, title, close),
    log,
    replies,
    status,
    h('div', { class: 'foot' }, attach, picker, input, send),
  );
  root.append(bubble, panel);
  shadow.append(style, root);

  const isOpen = () => !panel.hidden;
  function setOpen(open: boolean) {
    panel.hidden = !open;
    root.classList.toggle('open', open);
    bubble.setAttribute('aria-expanded', String(open));
    if (open) {
      dot.hidden = true;
      on.opened();
      input.focus();
      log.scrollTop = log.scrollHeight;
    } else bubble.focus();
  }
  bubble.addEventListener('click', () => setOpen(!isOpen()));
  close.addEventListener('click', () => setOpen(false));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') setOpen(false);
  });
  const submit = () => {
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    on.send(text);
  };
  send.addEventListener('click', submit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  });

  /** A file goes with what was typed as its caption; one too large is refused before it is sent. */
  const pick = (file: File | undefined) => {
    if (!file) return;
    // The server refuses it too; this spares the visitor uploading it first.
    if (file.size > MAX_FILE_BYTES) {
      status.textContent = `The file is over ${MAX_FILE_BYTES / 1024 / 1024} MB, the most that can be sent.`;
      return;
    }
    const caption = input.value.trim();
    input.value = '';
    on.attach(file, caption);
  };
  attach.addEventListener('click', () => picker.click());
  picker.addEventListener('change', () => {
    pick(picker.files?.[0]);
    picker.value = '';
  });
  input.addEventListener('paste', (e) => {
    const file = e.clipboardData?.files[0];
    if (!file) return;
    e.preventDefault();
    pick(file);
  });
  panel.addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    panel.classList.add('drop');
  });
  panel.addEventListener('dragleave', (e) => {
    if (!panel.contains(e.relatedTarget as Node | null)) panel.classList.remove('drop');
  });
  panel.addEventListener('drop', (e) => {
    panel.classList.remove('drop');
    if (!e.dataTransfer?.files.length) return;
    e.preventDefault();
    pick(e.dataTransfer.files[0]);
  });

  log.addEventListener('scroll', () => {
    if (log.scrollTop < 40) on.scrolledToTop();
  });

  const press = (text: string) => on.send(text);
  const shown = new Set<string>();
  const pending: HTMLElement[] = [];
  /** Files sent whose message has not come yet, by address; addresses of files already shown. */
  const sentFiles = new Map<string, () => void>();
  const shownFiles = new Set<string>();
  const append = (el: HTMLElement) => {
    log.insertBefore(el, typing.isConnected ? typing : null);
    log.scrollTop = log.scrollHeight;
  };
  log.append(typing);

  return {
    mount: () => document.body.append(host),
    /**
     * A stored message, once: a repeat (a resumed stream, a history reload) is skipped. A live
     * one from the bot marks the closed bubble unread.
     */
    show(message: WidgetMessage, live: boolean) {
      if (shown.has(message.id)) return;
      shown.add(message.id);
      if (message.from === 'visitor') {
        if (!message.attachments.length && pending[0]?.textContent === message.text)
          pending.shift()?.remove();
        for (const { url } of message.attachments) {
          shownFiles.add(url);
          sentFiles.get(url)?.();
          sentFiles.delete(url);
        }
      }
      append(messageView(message, press));
      // The bot's message replaces the draft it was written as.
      if (message.from === 'bot') typing.textContent = '…';
      // As a messenger's keyboard: the visitor's own message and answers from other blocks leave it.
      if (message.replies.length) replies.replaceChildren(buttonRows(message.replies, press));
      else if (message.from === 'bot' && !message.keepsReplies) replies.replaceChildren();
      if (live && message.from === 'bot' && !isOpen()) dot.hidden = false;
    },
    /**
     * Earlier messages (oldest first) above those shown, keeping what the visitor looks at in
     * place; their reply buttons are long past.
     */
    earlier(messages: WidgetMessage[]) {
      const fromBottom = log.scrollHeight - log.scrollTop;
      const first = log.querySelector('.msg');
      for (const message of messages) {
        if (shown.has(message.id)) continue;
        shown.add(message.id);
        log.insertBefore(messageView(message, press), first ?? typing);
      }
      log.scrollTop = log.scrollHeight - fromBottom;
    },
    /** The visitor's message until the server has stored it. */
    pending(text: string) {
      const el = h('div', { class: 'msg visitor pending' }, text);
      pending.push(el);
      append(el);
      return () => {
        el.remove();
        pending.splice(pending.indexOf(el), 1);
        input.value ||= text;
      };
    },
    /**
     * The visitor's file until its message comes: the image itself or the file's name and size,
     * "Sending…" while it uploads. `sent` with its address, or `failed` (the caption goes back).
     */
    pendingFile(file: File, caption: string) {
      const el = h('div', { class: 'msg visitor pending', 'data-file': file.name });
      const preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : null;
      if (caption) el.append(caption);
      el.append(
        preview
          ? h('span', { class: 'att' }, h('img', { src: preview, alt: file.name }))
          : h('span', { class: 'att chip' }, `${file.name} · ${formatFileSize(file.size)}`),
      );
      const state = h('span', { class: 'sending', role: 'status' }, 'Sending…');
      el.append(state);
      append(el);
      const done = () => {
        if (preview) URL.revokeObjectURL(preview);
        el.remove();
      };
      return {
        sent(url: string) {
          state.remove();
          if (shownFiles.has(url)) done();
          else sentFiles.set(url, done);
        },
        failed() {
          done();
          input.value ||= caption;
        },
      };
    },
    typing(on: boolean) {
      typing.hidden = !on;
      if (!on) typing.textContent = '…';
      if (on) log.scrollTop = log.scrollHeight;
    },
    /** An AI answer as it is written, in the typing bubble until its message comes. */
    draft(text: string) {
      typing.hidden = false;
      typing.textContent = text || '…';
      log.scrollTop = log.scrollHeight;
    },
    status(text: string) {
      status.textContent = text;
    },
    clear() {
      for (const el of log.querySelectorAll('.msg')) el.remove();
      shown.clear();
      pending.length = 0;
      sentFiles.clear();
      shownFiles.clear();
      replies.replaceChildren();
    },
    open: () => setOpen(true),
  };
}
export type Panel = ReturnType<typeof createPanel>;

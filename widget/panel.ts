import type { WidgetMessage } from '../lib/widget/messages';
import type { WidgetPublicConfig } from '../lib/widget/settings';
import { CHAT_ICON, CLOSE_ICON, h, icon } from './dom';
import { buttonRows, messageView } from './messages-view';
import { STYLES } from './styles';

export interface PanelEvents {
  opened(): void;
  send(text: string): void;
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
  const panel = h(
    'div',
    { class: 'panel', role: 'dialog', 'aria-labelledby': 'bb-title', hidden: '' },
    h('div', { class: 'head' }, title, close),
    log,
    replies,
    status,
    h('div', { class: 'foot' }, input, send),
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

  const press = (text: string) => on.send(text);
  const shown = new Set<string>();
  const pending: HTMLElement[] = [];
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
      if (message.from === 'visitor' && pending[0]?.textContent === message.text) pending.shift()?.remove();
      append(messageView(message, press));
      replies.replaceChildren(...(message.replies.length ? [buttonRows(message.replies, press)] : []));
      if (live && message.from === 'bot' && !isOpen()) dot.hidden = false;
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
    typing(on: boolean) {
      typing.hidden = !on;
      if (on) log.scrollTop = log.scrollHeight;
    },
    status(text: string) {
      status.textContent = text;
    },
    clear() {
      for (const el of log.querySelectorAll('.msg')) el.remove();
      shown.clear();
      pending.length = 0;
      replies.replaceChildren();
    },
    open: () => setOpen(true),
  };
}
export type Panel = ReturnType<typeof createPanel>;

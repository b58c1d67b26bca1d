import type { WidgetButton, WidgetMessage } from '../lib/widget/messages';
import { h } from './dom';

/** One message of the dialog as elements; `press` sends a button's text. */
export function messageView(message: WidgetMessage, press: (text: string) => void): HTMLElement {
  const el = h('div', { class: `msg ${message.from}`, 'data-id': message.id });
  // An operator's reply says who wrote it: the visitor is talking to a person now.
  if (message.operator) el.append(operatorView(message.operator));
  if (message.text) el.append(message.text);
  for (const a of message.attachments) el.append(attachmentView(a.type, a.url));
  if (message.inline.length) el.append(buttonRows(message.inline, press));
  return el;
}

function operatorView(operator: { name: string; avatar?: string }): HTMLElement {
  const who = h('span', { class: 'who' });
  if (operator.avatar) who.append(h('img', { class: 'ava', src: operator.avatar, alt: '' }));
  who.append(operator.name);
  return who;
}

function attachmentView(type: string, url: string): HTMLElement {
  if (type === 'image') {
    const link = h('a', { class: 'att', href: url, target: '_blank', rel: 'noopener noreferrer' });
    link.append(h('img', { src: url, alt: 'Image', loading: 'lazy' }));
    return link;
  }
  if (type === 'video' || type === 'audio') {
    const media = h(type, { src: url, controls: '', preload: 'metadata' });
    return h('div', { class: 'att' }, media);
  }
  const name = decodeURIComponent(url.split(/[?#]/)[0].split('/').pop() || url);
  return h(
    'a',
    { class: 'att', href: url, target: '_blank', rel: 'noopener noreferrer' },
    type === 'file' ? `File: ${name}` : url,
  );
}

/** Rows of buttons: a link opens in a new tab, any other sends its text. */
export function buttonRows(rows: WidgetButton[][], press: (text: string) => void): HTMLElement {
  const box = h('div', { class: 'rows' });
  for (const row of rows) {
    const line = h('div', { class: 'row' });
    for (const b of row) {
      if (b.url)
        line.append(
          h('a', { class: 'btn', href: b.url, target: '_blank', rel: 'noopener noreferrer' }, b.text),
        );
      else if (b.send !== undefined) {
        const send = b.send;
        const button = h('button', { class: 'btn', type: 'button' }, b.text);
        button.addEventListener('click', () => press(send));
        line.append(button);
      }
    }
    box.append(line);
  }
  return box;
}

import { attachmentFileName, attachmentMimeType, isFileAttachment } from '@/lib/channels/attachment-file';
import { numberedOptions, splitText } from '@/lib/channels/message-layout';
import type { Buttons } from '@/lib/schema';
import type { OutgoingCloudMessage } from './cloud-render';

/**
 * One of our outgoing messages → the session gateway's sends (WAHA's `sendText`, `sendImage`,
 * `sendFile`). WhatsApp Web shows no buttons a bot can rely on, so every message's buttons are
 * the hint variant: numbered options under the text, and the client answers with the number
 * or the option's text (both lead along the option's arrow). URL buttons become `text: address`
 * lines; files go by link with their name and type (WAHA's `RemoteFile` requires the type),
 * the text as the caption of a lone image or file when it fits.
 */

/** WhatsApp's longest message, and a caption's. */
export const GATEWAY_TEXT_LIMIT = 65_536;
export const GATEWAY_CAPTION_LIMIT = 1024;

export type GatewaySend =
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'file'; url: string; filename: string; mimetype: string; caption?: string };

export function gatewayText(text: string, buttons: Buttons | null | undefined): string {
  const all = buttons ? (Array.isArray(buttons) ? buttons : buttons.buttons) : [];
  const hint = buttons && !Array.isArray(buttons) ? buttons.hint : '';
  const options = all.filter((b) => !b.url);
  const links = all.filter((b) => b.url);
  let shown = options.length || hint ? numberedOptions(text, hint, options) : text.trim();
  if (links.length) shown = [shown, ...links.map((b) => `${b.text}: ${b.url}`)].filter(Boolean).join('\n');
  return shown;
}

export function renderGatewayMessage(message: OutgoingCloudMessage): GatewaySend[] {
  let text = gatewayText(message.text, message.buttons);
  const linkLines = message.attachments.filter((a) => a.type === 'link').map((a) => a.url);
  if (linkLines.length) text = [text, ...linkLines].filter(Boolean).join('\n');
  const files = message.attachments.filter(isFileAttachment);
  const captioned =
    files.length === 1 &&
    files[0].type !== 'audio' &&
    text.length > 0 &&
    text.length <= GATEWAY_CAPTION_LIMIT;
  const sends: GatewaySend[] = files.map((file) => ({
    kind: file.type === 'image' ? 'image' : 'file',
    url: file.url,
    filename: attachmentFileName(file.url),
    mimetype: attachmentMimeType(file),
    ...(captioned ? { caption: text } : {}),
  }));
  if (captioned) return sends;
  for (const part of splitText(text, GATEWAY_TEXT_LIMIT)) sends.push({ kind: 'text', text: part });
  return sends;
}

import { typeOfFileName } from '@/lib/files/file-types';
import type { Attachment } from '@/lib/schema';

/**
 * What a messenger that takes files by link needs to know of one of our attachments, which
 * carry only their kind and address: the name the client sees (a document's title) and its
 * type. Pure.
 */

/** An attachment that is a file (not a link). */
export type FileAttachment = Attachment & { type: Exclude<Attachment['type'], 'link'> };
export const isFileAttachment = (a: Attachment): a is FileAttachment => a.type !== 'link';

/** The address's last part (`…/Price%20list.pdf?sig=…` → `Price list.pdf`), else `file`. */
export function attachmentFileName(url: string): string {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    if (last.trim()) return last;
  } catch {
    // not an absolute address, or not decodable: the generic name below
  }
  return 'file';
}

/** A kind's type when the name says none: what a messenger shows such a file as. */
const KIND_TYPES: Record<FileAttachment['type'], string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/mpeg',
  file: 'application/octet-stream',
};

/**
 * The attachment's type from its name's extension, when that is of its kind (a `.pdf` image
 * address is still an image), else its kind's usual type.
 */
export function attachmentMimeType(attachment: FileAttachment): string {
  const named = typeOfFileName(attachmentFileName(attachment.url));
  const kind = attachment.type;
  if (named && (kind === 'file' || named.startsWith(`${kind}/`))) return named;
  return KIND_TYPES[kind];
}

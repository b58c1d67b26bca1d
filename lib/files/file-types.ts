/**
 * The files a client may send (server/files/, the widget's uploads): their size cap, the types
 * taken and what each becomes as a message attachment. Shared by the server, which decides, and
 * widget.js, which refuses a too large file before sending it.
 */

/** The largest file a client may send: 10 MB. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

type AttachmentKind = 'image' | 'video' | 'audio' | 'file';

const OFFICE_TYPES = [
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
  'text/csv',
];

/** Every type taken (the Content-Type's essence, lower case). */
export const ALLOWED_FILE_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  ...OFFICE_TYPES,
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
];

/**
 * File name extensions and the types they stand for, the usual one of each type first: a file
 * known only by its address is sent with the type its name says (lib/channels/attachment-file).
 */
const EXTENSION_TYPES: readonly (readonly [string, string])[] = [
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  ['doc', 'application/msword'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xls', 'application/vnd.ms-excel'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['ppt', 'application/vnd.ms-powerpoint'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ['odt', 'application/vnd.oasis.opendocument.text'],
  ['ods', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['odp', 'application/vnd.oasis.opendocument.presentation'],
  ['rtf', 'application/rtf'],
  ['csv', 'text/csv'],
  ['mp3', 'audio/mpeg'],
  ['m4a', 'audio/mp4'],
  ['aac', 'audio/aac'],
  ['ogg', 'audio/ogg'],
  ['oga', 'audio/ogg'],
  ['opus', 'audio/ogg'],
  ['wav', 'audio/wav'],
  ['weba', 'audio/webm'],
  ['mp4', 'video/mp4'],
  ['webm', 'video/webm'],
  ['ogv', 'video/ogg'],
  ['mov', 'video/quicktime'],
];

/** The type a file name's extension says (`Price list.PDF` → application/pdf), or null. */
export function typeOfFileName(name: string): string | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return EXTENSION_TYPES.find(([e]) => e === extension)?.[1] ?? null;
}

/** The usual extension of a type, with its dot (`image/jpeg` → `.jpg`), or '' for another type. */
export function extensionOfType(mime: string): string {
  const essence = mimeEssence(mime);
  const found = EXTENSION_TYPES.find(([, type]) => type === essence);
  return found ? `.${found[0]}` : '';
}

export const ALLOWED_FILE_KINDS =
  'images (JPEG, PNG, GIF, WebP), PDF, plain text, office documents (Word, Excel, PowerPoint, OpenDocument, RTF, CSV), audio and video';

/** `image/PNG; charset=x` → `image/png`. */
export const mimeEssence = (contentType: string): string => contentType.split(';')[0].trim().toLowerCase();

export const isAllowedFileType = (mime: string): boolean => ALLOWED_FILE_TYPES.includes(mime);

/** A message attachment's type for a file of this type: images, audio and video are shown, the rest is a file. */
export function attachmentKind(mime: string): AttachmentKind {
  const top = mime.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'file';
}

/** What the file must start with: `?` matches any byte. */
const SIGNATURES: Record<string, string[]> = {
  'image/jpeg': ['\xff\xd8\xff'],
  'image/png': ['\x89PNG\r\n\x1a\n'],
  'image/gif': ['GIF87a', 'GIF89a'],
  'image/webp': ['RIFF????WEBP'],
  'application/pdf': ['%PDF-'],
};

/**
 * Whether the bytes are what their type says, for the types a browser would show or run by
 * their content (images, PDF): an HTML page labelled image/png is refused. Other types are
 * taken as labelled; they are served with nosniff, sandboxed, as downloads or media only.
 */
export function matchesFileType(mime: string, bytes: Uint8Array): boolean {
  const signatures = SIGNATURES[mime];
  if (!signatures) return true;
  return signatures.some(
    (signature) =>
      bytes.length >= signature.length &&
      [...signature].every((c, i) => c === '?' || bytes[i] === c.charCodeAt(0)),
  );
}

/** A file's size as people read it: `820 B`, `14.2 kB`, `3.1 MB`. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

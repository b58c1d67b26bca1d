/** The formats an uploaded file is read in. */
export type FileKind = 'text' | 'markdown' | 'html' | 'pdf';

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  txt: 'text',
  text: 'text',
};

/** The accept attribute of the upload field. */
export const ACCEPTED_FILES =
  '.pdf,.md,.markdown,.html,.htm,.txt,application/pdf,text/markdown,text/html,text/plain';

/** A file's format by its name's extension, then its content type; null when neither says. */
export function fileKind(name: string, contentType = ''): FileKind | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (extension && BY_EXTENSION[extension]) return BY_EXTENSION[extension];
  const type = contentType.toLowerCase();
  if (type.startsWith('application/pdf')) return 'pdf';
  if (type.startsWith('text/markdown')) return 'markdown';
  if (type.startsWith('text/html')) return 'html';
  if (type.startsWith('text/plain')) return 'text';
  return null;
}

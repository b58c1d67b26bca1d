/** A zod issue of the test form as the server words its own: the field's path, then the message. */
export function issueText(issue: { path: readonly PropertyKey[]; message: string }): string {
  const path = issue.path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${String(part)}`))
    .join('');
  return path ? `${path}: ${issue.message}` : issue.message;
}

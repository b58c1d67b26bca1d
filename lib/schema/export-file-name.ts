/**
 * The file an exported bot downloads as: the project's name and the day, so exports of several
 * projects, or of one project over time, tell themselves apart (`shop-bot-2026-05-01.json`).
 */
export function exportFileName(projectName: string, day: Date): string {
  const name = projectName
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  return `${name || 'bot'}-${date}.json`;
}

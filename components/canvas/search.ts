import type { Block } from '@/lib/schema';

/**
 * Blocks matching a search: an id (`12` or `#12`) first, then names, then texts, each
 * case-insensitive. Pure, so the search box stays a thin view.
 */
export function searchBlocks(blocks: readonly Block[], query: string, limit = 8): Block[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const idQuery = /^#?(\d+)$/.exec(q);
  const byId: Block[] = [];
  const byName: Block[] = [];
  const byText: Block[] = [];
  for (const block of blocks) {
    if (idQuery && block.id === Number(idQuery[1])) byId.push(block);
    else if (block.name.toLowerCase().includes(q)) byName.push(block);
    else if (block.text.toLowerCase().includes(q)) byText.push(block);
  }
  return [...byId, ...byName, ...byText].slice(0, limit);
}

import type { Block } from '@/lib/schema';

/**
 * Blocks matching a search: an id (`12` or `#12`) first, then names, then texts, then formulas,
 * each case-insensitive. Pure, so the search box stays a thin view.
 */
export function searchBlocks(blocks: readonly Block[], query: string, limit = 8): Block[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const idQuery = /^#?(\d+)$/.exec(q);
  const byId: Block[] = [];
  const byName: Block[] = [];
  const byText: Block[] = [];
  const byFormula: Block[] = [];
  for (const block of blocks) {
    if (idQuery && block.id === Number(idQuery[1])) byId.push(block);
    else if (block.name.toLowerCase().includes(q)) byName.push(block);
    else if (block.text.toLowerCase().includes(q)) byText.push(block);
    else if (block.formula.toLowerCase().includes(q)) byFormula.push(block);
  }
  return [...byId, ...byName, ...byText, ...byFormula].slice(0, limit);
}

/** The first line of the block's formula that has the query, to show why the block matched. */
export function matchingFormulaLine(block: Block, query: string): string | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return undefined;
  return block.formula
    .split('\n')
    .find((line) => line.toLowerCase().includes(q))
    ?.trim();
}

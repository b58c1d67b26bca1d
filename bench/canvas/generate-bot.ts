import {
  type ArrowInput,
  type BlockInput,
  type BlockKind,
  BOT_SCHEMA_FORMAT,
  type BotSchemaInput,
  LIMITS,
  TRIGGER_KINDS,
} from '../../lib/schema';

/** Grid of the generated layout: blocks are about 224 × 80–180 px. */
export const COLUMNS = 40;
export const COLUMN_GAP = 300;
export const ROW_GAP = 260;

const TOPICS = ['order', 'delivery', 'refund', 'price', 'support', 'account', 'invoice', 'booking'];
const WORDS = 'please tell me your preferred option and we will get back to you shortly with details'.split(
  ' ',
);

/** A deterministic pseudo-random sequence (mulberry32), so every run opens the same bot. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function kindOf(i: number, r: number): BlockKind {
  if (i % 100 === 0) return 'start';
  if (r < 0.5) return 'state';
  if (r < 0.65) return 'not_state';
  if (r < 0.75) return 'not_state_condition';
  if (r < 0.82) return 'close_deal';
  if (r < 0.95) return 'data_transfer';
  return 'comment';
}

/**
 * A realistic big bot for the canvas benchmark: `count` blocks of every kind on a grid, with
 * names, texts with placeholders, buttons, formulas, requests and attachments, and about 1.3
 * arrows per block (conditions, some shown as buttons or collecting a reply, timers and
 * unconditional ones) mostly to nearby blocks, some far across the canvas.
 */
export function generateBot(count: number, seed = 1): BotSchemaInput {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(' ');

  const blocks: BlockInput[] = [];
  let triggers = 0;
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    let kind = kindOf(i, next());
    // A bot may have only so many start and quick reply blocks: a 5,000-block bot's others are states.
    if (TRIGGER_KINDS.has(kind) && ++triggers > LIMITS.triggerBlocks) kind = 'state';
    const topic = pick(TOPICS);
    const position = { x: (i % COLUMNS) * COLUMN_GAP, y: Math.floor(i / COLUMNS) * ROW_GAP };
    const block: BlockInput = { id, kind, name: `${topic} ${id}`, position };
    if (kind === 'comment') {
      blocks.push({ ...block, size: { width: 240, height: 120 }, text: `Note: ${sentence(14)}` });
      continue;
    }
    block.text = `Hi #{name}, ${sentence(6 + Math.floor(next() * 20))} (#{${topic}_id})`;
    if (kind === 'start' || kind === 'not_state_condition')
      block.trigger = { alternatives: `${topic};/${topic};${topic} please`, match: 'keywords' };
    if (next() < 0.35)
      block.buttons = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, b) => ({
        text: `${pick(TOPICS)} ${b + 1}`,
      }));
    if (next() < 0.3) block.formula = `${topic}_total = round(int(${topic}_count) * 1.2, 2)\nseen = seen + 1`;
    if (kind === 'data_transfer')
      block.request = {
        type: 'POST-json',
        url: `https://crm.example.com/${topic}`,
        params: `{"client": "#{client_id}", "${topic}": "#{${topic}_id}"}`,
        storedValues: `result|0|id->${topic}_ref`,
      };
    if (next() < 0.05) block.attachments = [{ type: 'image', url: `https://cdn.example.com/${topic}.png` }];
    blocks.push(block);
  }

  const arrows: ArrowInput[] = [];
  const targets = blocks.filter((b) => b.kind !== 'comment').map((b) => b.id);
  for (const block of blocks) {
    if (block.kind === 'comment') continue;
    const fanOut = next() < 0.35 ? 2 : 1;
    for (let k = 0; k < fanOut; k++) {
      // Mostly the next blocks on the grid; one arrow in ten crosses the canvas.
      const to = next() < 0.1 ? pick(targets) : Math.min(count, block.id + 1 + Math.floor(next() * 3));
      if (blocks[to - 1].kind === 'comment') continue;
      const id = arrows.length + 1;
      const r = next();
      const topic = pick(TOPICS);
      if (r < 0.6) {
        arrows.push({
          id,
          from: block.id,
          to,
          kind: 'condition',
          condition: { alternatives: `${topic};${topic} now`, match: 'fuzzy' },
          showAsButton: next() < 0.3,
          collectInto: next() < 0.1 ? `${topic}_answer` : undefined,
        });
      } else if (r < 0.8) {
        arrows.push({ id, from: block.id, to, kind: 'unconditional' });
      } else {
        arrows.push({ id, from: block.id, to, kind: 'timer', timer: { delay: 5, unit: 'minutes' } });
      }
    }
  }
  return { format: BOT_SCHEMA_FORMAT, blocks, arrows };
}

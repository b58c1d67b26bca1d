import { type Edge, MarkerType, type Node } from '@xyflow/react';
import type { Arrow, Block, BotSchema, Buttons, Timer } from '@/lib/schema';
import { DEFAULT_COMMENT_SIZE } from './schema-ops';

/**
 * Pure mapping between the bot schema and React Flow's nodes and edges. The canvas keeps React
 * Flow's node state (positions change on every drag frame); the schema is derived from it when a
 * change is committed, and mapped back with `reconcileNodes`, which keeps every node object whose
 * block did not change, so memoised nodes do not re-render.
 */

export interface BlockNodeData extends Record<string, unknown> {
  block: Block;
  /** Reply buttons from arrows shown as a button (bot-semantics §2). */
  arrowButtons: readonly string[];
  /** Timer arrows leaving the block. */
  timerArrows: number;
}
export type BlockFlowNode = Node<BlockNodeData, 'block'>;
export type CommentFlowNode = Node<BlockNodeData, 'comment'>;
export type BotFlowNode = BlockFlowNode | CommentFlowNode;

export interface ArrowEdgeData extends Record<string, unknown> {
  arrow: Arrow;
}
export type ArrowFlowEdge = Edge<ArrowEdgeData, 'arrow'>;

export const nodeId = (blockId: number) => String(blockId);
export const edgeId = (arrowId: number) => `a${arrowId}`;
export const blockIdOf = (id: string) => Number(id);
export const arrowIdOf = (id: string) => Number(id.slice(1));

export interface OutgoingExtras {
  arrowButtons: readonly string[];
  timerArrows: number;
}
const NO_EXTRAS: OutgoingExtras = { arrowButtons: [], timerArrows: 0 };

/** The first alternative of a condition: what a "show as button" arrow puts on its block. */
export function firstAlternative(arrow: Arrow): string {
  return (arrow.condition?.alternatives ?? '').split(';')[0]?.trim() ?? '';
}

/** Per source block: the buttons arrows put on it and its timer arrows. */
export function outgoingExtras(arrows: readonly Arrow[]): Map<number, OutgoingExtras> {
  const extras = new Map<number, { arrowButtons: string[]; timerArrows: number }>();
  for (const arrow of arrows) {
    const button = arrow.showAsButton && arrow.kind === 'condition' ? firstAlternative(arrow) : '';
    if (!button && arrow.kind !== 'timer') continue;
    let entry = extras.get(arrow.from);
    if (!entry) {
      entry = { arrowButtons: [], timerArrows: 0 };
      extras.set(arrow.from, entry);
    }
    if (button) entry.arrowButtons.push(button);
    if (arrow.kind === 'timer') entry.timerArrows++;
  }
  return extras;
}

export function buttonTexts(buttons: Buttons | undefined): string[] {
  if (!buttons) return [];
  return (Array.isArray(buttons) ? buttons : buttons.buttons).map((b) => b.text);
}

export function blockToNode(block: Block, extras: OutgoingExtras = NO_EXTRAS, selected = false): BotFlowNode {
  const data: BlockNodeData = { block, arrowButtons: extras.arrowButtons, timerArrows: extras.timerArrows };
  if (block.kind === 'comment') {
    const size = block.size ?? DEFAULT_COMMENT_SIZE;
    return {
      id: nodeId(block.id),
      type: 'comment',
      position: block.position,
      data,
      selected,
      width: size.width,
      height: size.height,
    };
  }
  return { id: nodeId(block.id), type: 'block', position: block.position, data, selected };
}

export function arrowToEdge(arrow: Arrow, selected = false): ArrowFlowEdge {
  return {
    id: edgeId(arrow.id),
    type: 'arrow',
    source: nodeId(arrow.from),
    target: nodeId(arrow.to),
    data: { arrow },
    selected,
    ariaLabel: `Arrow ${arrow.id} (${arrow.kind}): ${arrowLabel(arrow)}`,
    markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
  };
}

export function schemaToFlow(schema: BotSchema): { nodes: BotFlowNode[]; edges: ArrowFlowEdge[] } {
  const extras = outgoingExtras(schema.arrows);
  return {
    nodes: schema.blocks.map((b) => blockToNode(b, extras.get(b.id))),
    edges: schema.arrows.map((a) => arrowToEdge(a)),
  };
}

const sameStrings = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * Nodes for `schema`, reusing each previous node object whose block, extras, position and
 * selection are unchanged. `selected` replaces the selection when given; otherwise existing
 * nodes keep theirs and new ones are unselected.
 */
export function reconcileNodes(
  previous: readonly BotFlowNode[],
  schema: BotSchema,
  selected?: ReadonlySet<number>,
): BotFlowNode[] {
  const byId = new Map(previous.map((n) => [n.id, n]));
  const extras = outgoingExtras(schema.arrows);
  return schema.blocks.map((block) => {
    const old = byId.get(nodeId(block.id));
    const extra = extras.get(block.id) ?? NO_EXTRAS;
    const isSelected = selected ? selected.has(block.id) : (old?.selected ?? false);
    if (!old) return blockToNode(block, extra, isSelected);
    const type = block.kind === 'comment' ? 'comment' : 'block';
    const unchanged =
      old.type === type &&
      old.data.block === block &&
      old.data.timerArrows === extra.timerArrows &&
      sameStrings(old.data.arrowButtons, extra.arrowButtons) &&
      old.position.x === block.position.x &&
      old.position.y === block.position.y;
    if (unchanged) return (old.selected ?? false) === isSelected ? old : { ...old, selected: isSelected };
    const fresh = blockToNode(block, extra, isSelected);
    // Keep React Flow's measurements so the node does not flicker while it is measured again.
    return old.type === type ? ({ ...old, ...fresh, measured: old.measured } as BotFlowNode) : fresh;
  });
}

export function reconcileEdges(
  previous: readonly ArrowFlowEdge[],
  schema: BotSchema,
  selected?: ReadonlySet<number>,
): ArrowFlowEdge[] {
  const byId = new Map(previous.map((e) => [e.id, e]));
  return schema.arrows.map((arrow) => {
    const old = byId.get(edgeId(arrow.id));
    const isSelected = selected ? selected.has(arrow.id) : (old?.selected ?? false);
    if (old && old.data?.arrow === arrow)
      return (old.selected ?? false) === isSelected ? old : { ...old, selected: isSelected };
    return arrowToEdge(arrow, isSelected);
  });
}

/** Positions and note sizes on the canvas, by block id. */
export function layoutOf(
  nodes: readonly BotFlowNode[],
): Map<number, { position: { x: number; y: number }; size?: { width: number; height: number } }> {
  return new Map(
    nodes.map((n) => [
      blockIdOf(n.id),
      {
        position: n.position,
        size: n.type === 'comment' && n.width && n.height ? { width: n.width, height: n.height } : undefined,
      },
    ]),
  );
}

const unitShort = { seconds: 's', minutes: 'min', hours: 'h', days: 'd' } as const;

export function timerLabel(timer: Timer | undefined): string {
  if (!timer) return 'timer';
  if ('at' in timer) return `at ${timer.at}`;
  return `${timer.delay} ${unitShort[timer.unit]}`;
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export const truncate = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** The text on an arrow: its condition's alternatives, its timer, or "any reply". */
export function arrowLabel(arrow: Arrow): string {
  if (arrow.kind === 'timer') return timerLabel(arrow.timer);
  if (arrow.kind === 'unconditional') return 'any reply';
  const alternatives = (arrow.condition?.alternatives ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' | ');
  const expression = arrow.condition?.expression ? ` if ${arrow.condition.expression}` : '';
  return truncate(alternatives + expression || 'condition', 48);
}

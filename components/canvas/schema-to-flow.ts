import { type Edge, MarkerType, type Node, type NodeHandle, Position } from '@xyflow/react';
import type { Arrow, Block, BotSchema, Timer } from '@/lib/schema';
import {
  arrowButtonHandle,
  arrowButtonText,
  buttonList,
  ownButtonHandle,
  sourceHandleOf,
} from '@/lib/schema/buttons';
import { blockKindStyle } from './block-colors';
import { NODE_HEIGHT, NODE_WIDTH } from './initial-viewport';
import { DEFAULT_COMMENT_SIZE } from './schema-ops';

/**
 * Pure mapping between the bot schema and React Flow's nodes and edges. The canvas keeps React
 * Flow's node state (positions change on every drag frame); the schema is derived from it when a
 * change is committed, and mapped back with `reconcileNodes`, which keeps every node object whose
 * block did not change, so memoised nodes do not re-render.
 */

export interface BlockNodeData extends Record<string, unknown> {
  block: Block;
  /** Reply buttons from arrows shown as a button (bot-semantics §2), each with its arrow. */
  arrowButtons: readonly ArrowButton[];
  /** Timer arrows leaving the block. */
  timerArrows: number;
}
export type BlockFlowNode = Node<BlockNodeData, 'block'>;
export type CommentFlowNode = Node<BlockNodeData, 'comment'>;
export type BotFlowNode = BlockFlowNode | CommentFlowNode;

export interface ArrowButton {
  arrowId: number;
  text: string;
}

export interface ArrowEdgeData extends Record<string, unknown> {
  arrow: Arrow;
}
export type ArrowFlowEdge = Edge<ArrowEdgeData, 'arrow'>;

export const nodeId = (blockId: number) => String(blockId);
export const edgeId = (arrowId: number) => `a${arrowId}`;
export const blockIdOf = (id: string) => Number(id);
export const arrowIdOf = (id: string) => Number(id.slice(1));

export interface OutgoingExtras {
  arrowButtons: readonly ArrowButton[];
  timerArrows: number;
}
const NO_EXTRAS: OutgoingExtras = { arrowButtons: [], timerArrows: 0 };

/** Per source block: the buttons arrows put on it and its timer arrows. */
export function outgoingExtras(arrows: readonly Arrow[]): Map<number, OutgoingExtras> {
  const extras = new Map<number, { arrowButtons: ArrowButton[]; timerArrows: number }>();
  for (const arrow of arrows) {
    const text = arrowButtonText(arrow);
    if (!text && arrow.kind !== 'timer') continue;
    let entry = extras.get(arrow.from);
    if (!entry) {
      entry = { arrowButtons: [], timerArrows: 0 };
      extras.set(arrow.from, entry);
    }
    if (text) entry.arrowButtons.push({ arrowId: arrow.id, text });
    if (arrow.kind === 'timer') entry.timerArrows++;
  }
  return extras;
}

/** The texts of each block's own buttons, for the handle its arrows leave from. */
function ownButtonTexts(blocks: readonly Block[]): Map<number, string[]> {
  const texts = new Map<number, string[]>();
  for (const block of blocks)
    if (block.buttons)
      texts.set(
        block.id,
        buttonList(block.buttons).map((b) => b.text),
      );
  return texts;
}
const NO_TEXTS: readonly string[] = [];

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
  return {
    id: nodeId(block.id),
    type: 'block',
    position: block.position,
    data,
    selected,
    // The name of the focusable block for assistive technology (its text follows inside).
    ariaLabel: `${blockKindStyle[block.kind].label} block #${block.id}: ${block.name || 'Untitled'}`,
  };
}

/** The edge of an arrow; `sourceHandle` is the button it leaves from (null: the block's own handle). */
export function arrowToEdge(
  arrow: Arrow,
  selected = false,
  sourceHandle: string | null = null,
): ArrowFlowEdge {
  return {
    id: edgeId(arrow.id),
    type: 'arrow',
    source: nodeId(arrow.from),
    sourceHandle,
    target: nodeId(arrow.to),
    data: { arrow },
    selected,
    ariaLabel: `Arrow ${arrow.id} (${arrow.kind}): ${arrowLabel(arrow)}`,
    markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
  };
}

export interface NodeButton {
  text: string;
  handle: string;
}

/** A block's own buttons, then those of arrows shown as a button, each with its handle id. */
export function nodeButtons({ block, arrowButtons }: BlockNodeData): NodeButton[] {
  return [
    ...buttonList(block.buttons).map((b, i) => ({ text: b.text, handle: ownButtonHandle(i) })),
    ...arrowButtons.map((b) => ({ text: b.text, handle: arrowButtonHandle(b.arrowId) })),
  ];
}

/** A handle's size on the canvas (block-node.tsx), centred on the block's edge. */
const HANDLE_SIZE = 12;

/**
 * The node with its usual size and handles (target on the left, sources on the right, half-way
 * down) until React Flow measures it. React Flow renders every node it has not measured, even
 * off screen; with these it can leave a big bot's off-screen blocks out and draw their arrows.
 * The estimates go when the block is measured (see `withoutEstimates`).
 */
function withEstimates(node: BotFlowNode): BotFlowNode {
  if (node.type === 'comment') return { ...node, handles: [] };
  const width = NODE_WIDTH;
  const height = NODE_HEIGHT;
  const at = (type: 'source' | 'target', id: string | null = null): NodeHandle => ({
    id,
    type,
    position: type === 'source' ? Position.Right : Position.Left,
    x: type === 'source' ? width - HANDLE_SIZE / 2 : -HANDLE_SIZE / 2,
    y: (height - HANDLE_SIZE) / 2,
    width: HANDLE_SIZE,
    height: HANDLE_SIZE,
  });
  return {
    ...node,
    initialWidth: width,
    initialHeight: height,
    handles: [at('target'), at('source'), ...nodeButtons(node.data).map((b) => at('source', b.handle))],
  };
}

/**
 * Nodes whose `measured` ids React Flow has just measured, without their estimated handles:
 * React Flow takes a node's `handles` over the ones it measured whenever the node object changes.
 */
export function withoutEstimates(nodes: BotFlowNode[], measured: ReadonlySet<string>): BotFlowNode[] {
  if (!measured.size) return nodes;
  return nodes.map((n) => {
    if (!n.handles || !measured.has(n.id)) return n;
    const { handles: _estimated, ...rest } = n;
    return rest as BotFlowNode;
  });
}

/** Above this many blocks the canvas renders only the visible ones. */
export const VISIBLE_ONLY_FROM = 300;

/**
 * The canvas's first nodes and edges. A bot big enough to render only its visible blocks gets
 * estimated sizes and handles (see `withEstimates`); a smaller one renders every block at once
 * anyway, and React Flow shows it when measured.
 */
export function schemaToFlow(schema: BotSchema): { nodes: BotFlowNode[]; edges: ArrowFlowEdge[] } {
  const extras = outgoingExtras(schema.arrows);
  const texts = ownButtonTexts(schema.blocks);
  const estimate = schema.blocks.length > VISIBLE_ONLY_FROM;
  return {
    nodes: schema.blocks.map((b) => {
      const node = blockToNode(b, extras.get(b.id));
      return estimate ? withEstimates(node) : node;
    }),
    edges: schema.arrows.map((a) => arrowToEdge(a, false, sourceHandleOf(a, texts.get(a.from) ?? NO_TEXTS))),
  };
}

const sameButtons = (a: readonly ArrowButton[], b: readonly ArrowButton[]) =>
  a.length === b.length && a.every((x, i) => x.arrowId === b[i].arrowId && x.text === b[i].text);

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
      sameButtons(old.data.arrowButtons, extra.arrowButtons) &&
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
  const texts = ownButtonTexts(schema.blocks);
  return schema.arrows.map((arrow) => {
    const old = byId.get(edgeId(arrow.id));
    const isSelected = selected ? selected.has(arrow.id) : (old?.selected ?? false);
    const sourceHandle = sourceHandleOf(arrow, texts.get(arrow.from) ?? NO_TEXTS);
    if (old && old.data?.arrow === arrow && (old.sourceHandle ?? null) === sourceHandle)
      return (old.selected ?? false) === isSelected ? old : { ...old, selected: isSelected };
    return arrowToEdge(arrow, isSelected, sourceHandle);
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

/** The text on an arrow: its condition's alternatives, its timer, "any reply" or "continue". */
export function arrowLabel(arrow: Arrow): string {
  if (arrow.inputExit) return 'after wrong answers';
  if (arrow.kind === 'timer') return timerLabel(arrow.timer);
  if (arrow.kind === 'unconditional') return 'any reply';
  if (arrow.kind === 'continue') return 'continue';
  const alternatives = (arrow.condition?.alternatives ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' | ');
  const expression = arrow.condition?.expression ? ` if ${arrow.condition.expression}` : '';
  return truncate(alternatives + expression || 'condition', 48);
}

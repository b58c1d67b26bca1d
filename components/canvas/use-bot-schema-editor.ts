'use client';

import { applyNodeChanges, type NodeChange, useEdgesState } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  type Arrow,
  type Block,
  type BlockKind,
  type BotSchema,
  botSchemaSchema,
  describeFieldErrors,
  zodFieldErrors,
} from '@/lib/schema';
import { buttonTextOfHandle, syncArrowButton, syncButtonArrows } from '@/lib/schema/buttons';
import { applyDraftChanges } from '@/lib/schema/draft-changes';
import { arrangedLayout, type DrawnSize } from './arrange-bot';
import { copySelection, parseClipboard, pasteFragment, serializeClipboard } from './clipboard';
import { type CollabNotice, collabNotice } from './collab-notices';
import {
  canRedo,
  canUndo,
  createHistory,
  type History,
  pushHistory,
  rebaseHistory,
  redoHistory,
  undoHistory,
} from './history';
import { allocateIds, initialWatermark, observeIds } from './ids';
import { importBeside } from './import-beside';
import { blocksBounds } from './initial-viewport';
import { createNodesStore } from './nodes-store';
import { type Box, PLACEMENT_GAP, type Point } from './placement';
import {
  addItems,
  applyLayout,
  deleteItems,
  newArrow,
  newBlock,
  newButtonArrow,
  replaceArrow,
  replaceBlock,
} from './schema-ops';
import {
  type ArrowFlowEdge,
  arrowIdOf,
  type BotFlowNode,
  blockIdOf,
  layoutOf,
  reconcileEdges,
  reconcileNodes,
  schemaToFlow,
  withoutEstimates,
} from './schema-to-flow';
import { type RemoteChange, useAutosave } from './use-autosave';

/** A notice over the canvas: a change refused, or others' changes one should know of. */
export interface EditorNotice extends CollabNotice {
  tone: 'error' | 'info';
}

export interface EditorInitial {
  schema: BotSchema;
  revision: number;
  /** The server's next ids, when it sends them: ids are never reused. */
  nextBlockId?: number;
  nextArrowId?: number;
}

interface Selection {
  blocks?: Iterable<number>;
  arrows?: Iterable<number>;
}

interface CommitOptions {
  /** Coalesces consecutive edits of one field into one undo step (`block:3:text`). */
  key?: string;
  /** Replaces the canvas selection. */
  select?: Selection;
  /** Checks the whole schema (limits, arrow ends) first; refused changes show a notice. */
  validate?: boolean;
}

/**
 * The canvas's state: React Flow's nodes (in a store of their own: positions live there, so a
 * drag re-renders only the dragged nodes and React Flow) and edges, the committed schema with its undo history, id
 * allocation and autosave. Every change goes through `commit`, which pushes a snapshot, maps it
 * back onto the nodes (reusing unchanged node objects) and schedules a save.
 */
export function useBotSchemaEditor({
  projectId,
  initial,
  freeSpot,
}: {
  projectId: number;
  initial: EditorInitial;
  /** Where a pasted group's box may go: the free spot nearest the one asked for (right of `rightOf`), as the canvas sees it. */
  freeSpot(wanted: Box, rightOf?: number): Point;
}) {
  const [initialFlow] = useState(() => schemaToFlow(initial.schema));
  const [nodesStore] = useState(() => createNodesStore(initialFlow.nodes));
  const setNodes = nodesStore.set;
  const [edges, setEdges, onEdgesChange] = useEdgesState<ArrowFlowEdge>(initialFlow.edges);
  const edgesRef = useRef(edges);
  edgesRef.current = edges;

  const history = useRef<History<BotSchema>>(createHistory(initial.schema));
  const watermark = useRef(initialWatermark(initial.schema, initial));
  const [view, setView] = useState({ schema: initial.schema, canUndo: false, canRedo: false });
  const [notice, setNotice] = useState<EditorNotice | null>(null);
  const placeRef = useRef(freeSpot);
  placeRef.current = freeSpot;

  const remoteRef = useRef<(change: RemoteChange) => void>(() => {});
  const autosave = useAutosave({
    projectId,
    initialRevision: initial.revision,
    getSnapshot: () => history.current.present,
    onRemote: (change) => remoteRef.current(change),
  });
  const { schedule } = autosave;

  const show = useCallback(
    (schema: BotSchema, select?: Selection) => {
      const blocks = select ? new Set(select.blocks ?? []) : undefined;
      const arrows = select ? new Set(select.arrows ?? []) : undefined;
      setNodes((prev) => reconcileNodes(prev, schema, blocks));
      setEdges((prev) => reconcileEdges(prev, schema, arrows));
    },
    [setNodes, setEdges],
  );

  const publish = useCallback(() => {
    const h = history.current;
    setView({ schema: h.present, canUndo: canUndo(h), canRedo: canRedo(h) });
  }, []);

  // Others' changes, applied to the present and to every undo step (Undo takes back one's own).
  remoteRef.current = (change: RemoteChange) => {
    const before = history.current.present;
    const open = new Set(
      nodesStore
        .get()
        .filter((n) => n.selected)
        .map((n) => blockIdOf(n.id)),
    );
    history.current = rebaseHistory(history.current, change.apply);
    watermark.current = observeIds(watermark.current, history.current.present);
    show(history.current.present);
    publish();
    const told = collabNotice(before, change, open);
    if (told) setNotice({ ...told, tone: 'info' });
  };
  const commit = useCallback(
    (next: BotSchema, options: CommitOptions = {}): boolean => {
      if (next === history.current.present) {
        if (options.select) show(next, options.select);
        return true;
      }
      if (options.validate) {
        const result = botSchemaSchema.safeParse(next);
        if (!result.success) {
          setNotice({
            text: `Not changed: ${describeFieldErrors(zodFieldErrors(result.error))}`,
            tone: 'error',
          });
          return false;
        }
      }
      history.current = pushHistory(history.current, next, { key: options.key });
      watermark.current = observeIds(watermark.current, next);
      setNotice(null);
      show(next, options.select);
      publish();
      schedule();
      return true;
    },
    [show, publish, schedule],
  );

  // Positions and note sizes enter the schema when a drag, a keyboard move or a resize ends.
  const [layoutRequest, setLayoutRequest] = useState(0);
  const onNodesChange = useCallback(
    (changes: NodeChange<BotFlowNode>[]) => {
      const measured = new Set(changes.flatMap((c) => (c.type === 'dimensions' ? [c.id] : [])));
      setNodes((prev) => withoutEstimates(applyNodeChanges(changes, prev), measured));
      if (
        changes.some(
          (c) =>
            (c.type === 'position' && c.dragging === false) ||
            (c.type === 'dimensions' && c.resizing === false),
        )
      )
        setLayoutRequest((n) => n + 1);
    },
    [setNodes],
  );
  useEffect(() => {
    if (layoutRequest)
      commit(applyLayout(history.current.present, layoutOf(nodesStore.get())), { key: 'layout' });
  }, [layoutRequest, commit, nodesStore]);

  const actions = useMemo(() => {
    // These read refs only, so the actions object is created once.
    const present = () => history.current.present;
    const selectedBlockIds = () =>
      nodesStore
        .get()
        .filter((n) => n.selected)
        .map((n) => blockIdOf(n.id));
    const selectedArrowIds = () => edgesRef.current.filter((e) => e.selected).map((e) => arrowIdOf(e.id));
    const nextBlockIds = (count: number) => allocateIds(watermark.current.block, present().blocks, count);
    const nextArrowId = () => allocateIds(watermark.current.arrow, present().arrows, 1)[0];
    /** A new arrow; from a button's handle it follows that button. */
    const arrowFrom = (from: number, to: number, handle?: string | null) => {
      const block = present().blocks.find((b) => b.id === from);
      const text = block && buttonTextOfHandle(block, present().arrows, handle);
      return text
        ? newButtonArrow(nextArrowId(), from, to, text)
        : newArrow(nextArrowId(), from, to, present());
    };
    // Copies go right of their originals, tops aligned, in the nearest spot there where they
    // cover no block (a copy pasted again goes beside the last one), as a block from the palette does.
    function pasteBeside(fragment: BotSchema): boolean {
      const bounds = blocksBounds(fragment.blocks);
      if (!bounds) return false;
      const right = bounds.x + bounds.width + PLACEMENT_GAP;
      const spot = placeRef.current({ ...bounds, x: right }, right);
      const offset = { x: spot.x - bounds.x, y: spot.y - bounds.y };
      const pasted = pasteFragment(present(), fragment, watermark.current, offset);
      return commit(pasted.schema, {
        validate: true,
        select: { blocks: pasted.blockIds, arrows: pasted.arrowIds },
      });
    }
    function paste(text: string): boolean {
      const fragment = parseClipboard(text);
      return fragment ? pasteBeside(fragment) : false;
    }
    return {
      addBlock(kind: BlockKind, position: { x: number; y: number }): number | null {
        const [id] = nextBlockIds(1);
        const ok = commit(addItems(present(), [newBlock(kind, id, position)]), {
          validate: true,
          select: { blocks: [id] },
        });
        return ok ? id : null;
      },
      /** A block dropped at the end of an arrow dragged into empty space (from `handle`), joined by that arrow. */
      addConnectedBlock(
        kind: BlockKind,
        position: { x: number; y: number },
        other: number,
        outgoing: boolean,
        handle?: string | null,
      ) {
        const [id] = nextBlockIds(1);
        const block = newBlock(kind, id, position);
        const arrow = outgoing
          ? arrowFrom(other, id, handle)
          : newArrow(nextArrowId(), id, other, { blocks: [block], arrows: [] });
        commit(addItems(present(), [block], [arrow]), {
          validate: true,
          select: { blocks: [id] },
        });
      },
      /** An arrow dragged between two blocks; from a button's `handle` it follows that button. */
      connect(from: number, to: number, handle?: string | null) {
        const arrow = arrowFrom(from, to, handle);
        commit(addItems(present(), [], [arrow]), {
          validate: true,
          select: { arrows: [arrow.id] },
        });
      },
      /** A block edit; its buttons' arrows follow renamed buttons and go with removed ones. */
      updateBlock(block: Block, field: string) {
        const before = present().blocks.find((b) => b.id === block.id);
        const next = replaceBlock(present(), block);
        const arrows = before ? syncButtonArrows(next.arrows, before, block) : next.arrows;
        commit(arrows === next.arrows ? next : { ...next, arrows: [...arrows] }, {
          key: `block:${block.id}:${field}`,
        });
      },
      /** An arrow edit; a button's arrow given another text renames the button (and its other arrows). */
      updateArrow(arrow: Arrow, field: string) {
        const before = present().arrows.find((a) => a.id === arrow.id);
        const block = before && present().blocks.find((b) => b.id === before.from);
        const synced = block && syncArrowButton(block, present().arrows, before, arrow);
        const next = synced
          ? { ...replaceBlock(present(), synced.block), arrows: [...synced.arrows] }
          : replaceArrow(present(), arrow);
        commit(next, { key: `arrow:${arrow.id}:${field}` });
      },
      /** An arrow deleted from the block editor (a button's): the block stays selected. */
      removeArrow(arrowId: number) {
        commit(deleteItems(present(), new Set(), new Set([arrowId])));
      },
      deleteItems(blockIds: number[], arrowIds: number[] = []) {
        commit(deleteItems(present(), new Set(blockIds), new Set(arrowIds)), { select: {} });
      },
      deleteSelection() {
        commit(deleteItems(present(), new Set(selectedBlockIds()), new Set(selectedArrowIds())), {
          select: {},
        });
      },
      /** The selected blocks (and the arrows between them) as clipboard text, or null. */
      copySelection(): string | null {
        const ids = selectedBlockIds();
        if (!ids.length) return null;
        return serializeClipboard(copySelection(present(), new Set(ids)));
      },
      paste,
      duplicate() {
        const ids = selectedBlockIds();
        if (!ids.length) return;
        pasteBeside(copySelection(present(), new Set(ids)));
      },
      /** An imported schema replaces the bot, as one step that Undo takes back. */
      replaceWith(imported: BotSchema): boolean {
        return commit(imported, { validate: true, select: {} });
      },
      /** An imported schema's blocks added beside the bot's, with new ids (one undoable step). */
      addBeside(imported: BotSchema): boolean {
        const merged = importBeside(present(), imported, watermark.current);
        return commit(merged.schema, {
          validate: true,
          select: { blocks: merged.blockIds, arrows: merged.arrowIds },
        });
      },
      /** The bot laid out left to right along its arrows: one undo step, saved like any move. */
      arrange(sizeOf: (blockId: number) => DrawnSize | undefined): BotSchema | null {
        const arranged = applyLayout(present(), arrangedLayout(present(), sizeOf));
        return commit(arranged) ? arranged : null;
      },
      undo() {
        if (!canUndo(history.current)) return;
        history.current = undoHistory(history.current);
        show(history.current.present);
        publish();
        schedule();
      },
      redo() {
        if (!canRedo(history.current)) return;
        history.current = redoHistory(history.current);
        show(history.current.present);
        publish();
        schedule();
      },
      select(blockIds: number[], arrowIds: number[] = []) {
        show(present(), { blocks: blockIds, arrows: arrowIds });
      },
      selectAll() {
        show(present(), { blocks: present().blocks.map((b) => b.id) });
      },
      dismissNotice() {
        setNotice(null);
      },
      /** One's own change back, as a notice of others' changes offers: a new step, saved like any. */
      takeBack(back: NonNullable<CollabNotice['takeBack']>) {
        let next = present();
        for (const { entity, id, field, value } of back.fields)
          next = applyDraftChanges(next, [
            { entity, op: 'set', id, fields: { [field]: value ?? null }, base: {} },
          ]);
        const blocks = back.blocks.filter((b) => !next.blocks.some((x) => x.id === b.id));
        const arrows = back.arrows.filter((a) => !next.arrows.some((x) => x.id === a.id));
        if (blocks.length || arrows.length) next = addItems(next, blocks, arrows);
        if (commit(next, { validate: true, select: { blocks: back.blocks.map((b) => b.id) } }))
          setNotice(null);
      },
    };
  }, [commit, show, publish, schedule, nodesStore]);

  return {
    nodesStore,
    edges,
    onNodesChange,
    onEdgesChange,
    schema: view.schema,
    canUndo: view.canUndo,
    canRedo: view.canRedo,
    notice,
    saveState: autosave.state,
    retrySave: autosave.flush,
    /** The live stream announced a revision of the draft: others' changes to read and apply. */
    revisionAnnounced: autosave.announced,
    connectionLost: autosave.lost,
    cancelSave: autosave.cancel,
    actions,
  };
}

export type BotSchemaEditor = ReturnType<typeof useBotSchemaEditor>;
export type EditorActions = BotSchemaEditor['actions'];

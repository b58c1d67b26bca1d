'use client';

import {
  Background,
  type Connection,
  ControlButton,
  Controls,
  type FinalConnectionState,
  type OnSelectionChangeParams,
  ReactFlow,
  type ReactFlowProps,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './canvas.css';
import { useQuery } from '@tanstack/react-query';
import { Map as MapIcon, Maximize } from 'lucide-react';
import {
  type DragEvent,
  type PointerEvent as ReactPointerEvent,
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { createPortal, flushSync } from 'react-dom';
import { ArrowEditor } from '@/components/arrow-editor/arrow-editor';
import { BlockEditor } from '@/components/block-editor/block-editor';
import { type ButtonArrows, ButtonArrowsContext } from '@/components/block-editor/button-arrows';
import { HeldBackContext } from '@/components/block-editor/use-validated-draft';
import { PROJECT_NAV_SLOT } from '@/components/projects/project-nav';
import { useProjectPlan } from '@/components/projects/use-project-plan';
import { CoverageLegend } from '@/components/tests/coverage-legend';
import { coverageCss } from '@/components/tests/coverage-marks';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { Coverage } from '@/lib/conversation-tests/results';
import { type BlockKind, type BotSchema, botSchemaSchema } from '@/lib/schema';
import { buttonArrowsOf } from '@/lib/schema/buttons';
import { demoBotSchema } from '@/lib/schema/demo-bot';
import { type LintTarget, messengersOf } from '@/lib/schema/lint';
import { AnalyticsStoreContext, createAnalyticsStore } from './analytics-overlay';
import { AnalyticsPanel } from './analytics-panel';
import { ArrowEdge } from './arrow-edge';
import { blockKindStyle } from './block-colors';
import { BlockNode } from './block-node';
import { BlockPalette, PALETTE_MIME } from './block-palette';
import { BotMiniMap } from './bot-minimap';
import { CommentNode } from './comment-node';
import { CurrentBlockContext, createCurrentBlockStore } from './current-block';
import { type DiffMarks, DiffMarksBanner, diffMarksCss } from './diff-marks';
import { EditorPanel } from './editor-panel';
import { EmptyCanvas, EmptyReadOnlyCanvas } from './empty-canvas';
import { FAR_NO_DRAG_CLASS, FarDrag } from './far-drag';
import { FarZoomContext, useFarZoom } from './far-zoom';
import { ImportExport } from './import-export';
import {
  centredViewport,
  FIT_PADDING,
  fittingViewport,
  NODE_HEIGHT,
  NODE_WIDTH,
  nodesBounds,
  type OpeningView,
  openingView,
} from './initial-viewport';
import { createLintStore, LintStoreContext } from './lint-badge';
import { type NodesStore, useNodes } from './nodes-store';
import { type Box, freeSpot, PLACEMENT_GAP } from './placement';
import { PointersToggle, PresenceAvatars, PresenceOutlines, PresencePointers } from './presence';
import { ProblemsPanel } from './problems-panel';
import { PublishControl } from './publish-control';
import { SaveStateIndicator } from './save-state';
import { DEFAULT_COMMENT_SIZE } from './schema-ops';
import {
  type ArrowFlowEdge,
  arrowIdOf,
  arrowLabel,
  type BotFlowNode,
  blockIdOf,
  nodeId,
  VISIBLE_ONLY_FROM,
} from './schema-to-flow';
import { SearchBox } from './search-box';
import { SelectedArrowLayers } from './selected-arrow-layers';
import { usePanelLayout } from './side-panel';
import { CanvasToolbar } from './toolbar';
import { type EditorInitial, useBotSchemaEditor } from './use-bot-schema-editor';
import { copyToClipboard, readClipboard, useCanvasShortcuts } from './use-canvas-shortcuts';
import { useCurrentDiffMarks } from './use-current-diff-marks';
import { useDeferredMount } from './use-deferred-mount';
import { useDraftEvents } from './use-draft-events';
import { useFollowBlock } from './use-follow-block';
import { useLintProblems } from './use-lint';
import { useOpenOnBlock } from './use-open-on-block';
import { usePointersShown } from './use-pointers-shown';
import { usePresence } from './use-presence';
import { useViewHeading } from './use-view-heading';
import { useVersionView } from './version-view';
import { isWideScreen } from './wide-screen';

// Stable objects: React Flow re-creates every node when these change.
const nodeTypes = { block: BlockNode, comment: CommentNode };
const edgeTypes = { arrow: ArrowEdge };
const multiSelectionKeys = ['Control', 'Meta'];
const ZOOM = { min: 0.05, max: 2 };
/**
 * Fitting the view never zooms in past 100 %: a one-block bot opens at its real size. React
 * Flow's fit on opening counts every block, with its usual size if it has not been rendered
 * yet: React Flow calls those "hidden" (the bot hides no node). Zoom to fit is fitView below.
 */
const FIT = { maxZoom: 1, includeHiddenNodes: true, padding: FIT_PADDING };
const FIT_ZOOM = { min: ZOOM.min, max: FIT.maxZoom };
/** A node's size as drawn: measured once rendered, its given or usual size before. */
const drawnSize = (n: Pick<BotFlowNode, 'measured' | 'width' | 'height'>) => ({
  width: n.measured?.width ?? n.width ?? NODE_WIDTH,
  height: n.measured?.height ?? n.height ?? NODE_HEIGHT,
});
/** Smaller than React Flow's 200 × 150, so it covers fewer blocks (and it can be hidden). */
const MINIMAP_SIZE = { width: 160, height: 110 };
const OUTLINE_ICON = { fill: 'none' };

/** React Flow over the editor's nodes, read here: a drag frame re-renders this, not the editor. */
function EditorFlow({
  nodesStore,
  ...props
}: Omit<ReactFlowProps<BotFlowNode, ArrowFlowEdge>, 'nodes'> & { nodesStore: NodesStore }) {
  return <ReactFlow<BotFlowNode, ArrowFlowEdge> {...props} nodes={useNodes(nodesStore)} />;
}

export interface BotEditorProps {
  projectId: number;
  initial: EditorInitial;
  /** Reloads the bot from the server (after a conflict or an import); pending saves are dropped first. */
  onReload(): void;
  /** The simulator's current block, outlined on the canvas. */
  currentBlock: number | null;
  /** Whether the view follows it there (not for the block a conversation was left in). */
  followCurrentBlock: boolean;
  /** A block to centre and select now (a new object each time it is asked for). */
  showBlock?: { id: number } | null;
  /** A block to open the canvas on (the page's `?block=<id>`). */
  openOnBlock?: number | null;
  /** An operator's view: the bot is shown, never changed (the server refuses saves too). */
  readOnly?: boolean;
  /** The last test run's coverage to mark on the canvas (the Tests panel's overlay), or null. */
  coverage?: { coverage: Coverage; version: number } | null;
}

/** The canvas workspace: toolbar, palette, React Flow, and the block or arrow editor for the selection. */
export function BotEditor({
  projectId,
  initial,
  onReload,
  currentBlock,
  followCurrentBlock,
  showBlock = null,
  openOnBlock = null,
  readOnly = false,
  coverage = null,
}: BotEditorProps) {
  const flow = useReactFlow<BotFlowNode, ArrowFlowEdge>();
  // New blocks and pasted copies go to the free spot nearest where they were asked for, never
  // onto another block (and right of `rightOf`, for a block that comes from another).
  const freeSpotOf = useCallback(
    (wanted: Box, rightOf?: number) => {
      const taken = flow.getNodes().map((n) => ({ ...n.position, ...drawnSize(n) }));
      return freeSpot(wanted, { width: wanted.width, height: wanted.height }, taken, { rightOf });
    },
    [flow],
  );
  const editor = useBotSchemaEditor({ projectId, initial, freeSpot: freeSpotOf });
  const { actions, schema } = editor;
  // The version whose analytics are open: its own bot is shown, read-only, while the draft waits.
  const [analyticsVersion, setAnalyticsVersion] = useState<number | null>(null);
  const versionView = useVersionView(projectId, analyticsVersion);
  const viewOnly = readOnly || versionView !== null;
  useCanvasShortcuts(actions, !viewOnly);
  const view = useViewHeading(flow);
  const pane = useRef<HTMLDivElement>(null);
  const [selection, setSelection] = useState<{ blocks: number[]; arrows: number[] }>({
    blocks: [],
    arrows: [],
  });
  // Others on this bot, and the draft's revisions they make (docs/builder.md, "Working together").
  const pointersShown = usePointersShown();
  const presence = usePresence(projectId, selection.blocks, !readOnly, pointersShown.shown);
  useDraftEvents(projectId, {
    onRevision: editor.revisionAnnounced,
    onPresence: presence.onPresence,
    onLost: editor.connectionLost,
  });
  // This canvas's pointer, for the others who show pointers (usePresence sends it only then).
  const { pointerMoved } = presence;
  const onPanePointerMove = useCallback(
    (event: ReactPointerEvent) =>
      pointerMoved(flow.screenToFlowPosition({ x: event.clientX, y: event.clientY })),
    [flow, pointerMoved],
  );
  const onPanePointerLeave = useCallback(() => pointerMoved(null), [pointerMoved]);
  // React Flow mounts once the pane's size is known, already at its opening view (see openingView).
  const [opening, setOpening] = useState<OpeningView | null>(null);
  const far = useFarZoom(opening?.viewport.zoom);
  // A big bot's minimap is another element per block: it comes after the canvas.
  const minimap = useDeferredMount();
  const [wide] = useState(isWideScreen);
  const [minimapShown, setMinimapShown] = useState(wide);
  const toggleMinimap = useCallback(() => setMinimapShown((shown) => !shown), []);
  const initialBlocks = initial.schema.blocks;
  // Read once: the canvas opens once, on the linked block if there is one.
  const [openingFocus] = useState(openOnBlock);
  useLayoutEffect(() => {
    const rect = pane.current?.getBoundingClientRect();
    setOpening(openingView(initialBlocks, rect?.width ?? 0, rect?.height ?? 0, FIT_ZOOM, openingFocus));
  }, [initialBlocks, openingFocus]);
  // The conversation's block keeps some room from the edge, so the next one is likely in view.
  useFollowBlock(followCurrentBlock ? currentBlock : null, pane, 40, view);
  const [currentBlockStore] = useState(createCurrentBlockStore);
  // A comparison of versions the history marks on the canvas, until hidden.
  const [shownDiff, setDiffMarks] = useState<DiffMarks | null>(null);
  const diffMarks = useCurrentDiffMarks(projectId, shownDiff);
  useEffect(() => currentBlockStore.set(currentBlock), [currentBlockStore, currentBlock]);
  // The messenger rule knows what the project's connected channels can show.
  const trpc = useTRPC();
  const channels = useQuery(trpc.channels.list.queryOptions({ projectId }));
  const channelKinds = channels.data?.map((c) => c.kind).join(',') ?? '';
  const messengers = useMemo(() => messengersOf(channelKinds.split(',')), [channelKinds]);
  // The plan rule warns of calls the project's plan does not allow.
  const plan = useProjectPlan(projectId);
  // The list rule knows the project's lists (the block editor's list picker shares the query).
  const lists = useQuery(trpc.lists.all.queryOptions({ projectId }));
  const listIdText = lists.data?.map((l) => l.id).join(',');
  const listIds = useMemo(
    () => (listIdText === undefined ? undefined : listIdText.split(',').filter(Boolean).map(Number)),
    [listIdText],
  );
  // Lint follows committed edits (a drag commits once, at its end) in a worker.
  // The CRM rule knows the project's stages (a block action's stage may have been deleted).
  const funnels = useQuery(trpc.crm.funnels.queryOptions({ projectId }));
  const stageKey = funnels.data?.flatMap((f) => f.stages.map((s) => s.id)).join(',');
  const crmStateIds = useMemo(
    () => (stageKey === undefined ? undefined : stageKey.split(',').filter(Boolean).map(Number)),
    [stageKey],
  );
  const problems = useLintProblems(schema, messengers, plan, listIds, crmStateIds);
  const [lintStore] = useState(createLintStore);
  // A version's blocks carry none of the draft's lint badges.
  const [noLintStore] = useState(createLintStore);
  const [analyticsStore] = useState(createAnalyticsStore);
  useLayoutEffect(() => lintStore.set(problems), [lintStore, problems]);

  // The block or arrow editor follows in a transition, so the canvas shows a click at once.
  const onSelectionChange = useCallback(
    ({ nodes, edges }: OnSelectionChangeParams<BotFlowNode, ArrowFlowEdge>) => {
      const blocks = nodes.map((n) => blockIdOf(n.id));
      const arrows = edges.map((e) => arrowIdOf(e.id));
      startTransition(() => setSelection({ blocks, arrows }));
    },
    [],
  );

  const freeSpotFor = useCallback(
    (kind: BlockKind, wanted: { x: number; y: number }, rightOf?: number) =>
      freeSpotOf(
        {
          ...wanted,
          ...(kind === 'comment' ? DEFAULT_COMMENT_SIZE : { width: NODE_WIDTH, height: NODE_HEIGHT }),
        },
        rightOf,
      ),
    [freeSpotOf],
  );

  const addBlock = useCallback(
    (kind: BlockKind) => {
      const rect = pane.current?.getBoundingClientRect();
      const centre = rect
        ? flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
        : { x: 0, y: 0 };
      actions.addBlock(
        kind,
        freeSpotFor(kind, { x: centre.x - NODE_WIDTH / 2, y: centre.y - NODE_HEIGHT / 2 }),
      );
    },
    [actions, flow, freeSpotFor],
  );

  const onConnect = useCallback(
    (connection: Connection) =>
      actions.connect(blockIdOf(connection.source), blockIdOf(connection.target), connection.sourceHandle),
    [actions],
  );

  // An arrow dragged from a handle into empty space: a new state block there, joined by the arrow.
  // An arrow out of a block goes right of it, however short the drag; let go past the canvas
  // (a block by its edge, dragged over the editor or the simulator), beside it, level with it.
  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid || !state.fromNode) return;
      const target = event.target instanceof Element ? event.target : null;
      if (!target || target.closest('.react-flow__node')) return;
      const onPane = !!target.closest('.react-flow__pane');
      const outgoing = state.fromHandle?.type !== 'target';
      if (!onPane && !outgoing) return;
      const point = 'changedTouches' in event ? event.changedTouches[0] : event;
      const at = flow.screenToFlowPosition({ x: point.clientX, y: point.clientY });
      const from = state.fromNode;
      const { x: fromX, y: fromY } = from.internals.positionAbsolute;
      const rightOf = outgoing ? fromX + drawnSize(from).width + PLACEMENT_GAP : undefined;
      const wanted = !outgoing
        ? { x: at.x - NODE_WIDTH, y: at.y - NODE_HEIGHT / 2 }
        : onPane
          ? { x: Math.max(at.x, rightOf ?? at.x), y: at.y - NODE_HEIGHT / 2 }
          : { x: rightOf ?? at.x, y: fromY };
      actions.addConnectedBlock(
        'state',
        freeSpotFor('state', wanted, rightOf),
        blockIdOf(from.id),
        outgoing,
        state.fromHandle?.id,
      );
    },
    [actions, flow, freeSpotFor],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const kind = event.dataTransfer.getData(PALETTE_MIME) as BlockKind;
      if (!kind || !(kind in blockKindStyle)) return;
      event.preventDefault();
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      actions.addBlock(kind, freeSpotFor(kind, { x: at.x - NODE_WIDTH / 2, y: at.y - 20 }));
    },
    [actions, flow, freeSpotFor],
  );

  const centreOf = useCallback(
    (blockId: number) => {
      const node = flow.getInternalNode(nodeId(blockId));
      if (!node) return null;
      const { x, y } = node.internals.positionAbsolute;
      return {
        x: x + (node.measured.width ?? NODE_WIDTH) / 2,
        y: y + (node.measured.height ?? NODE_HEIGHT) / 2,
      };
    },
    [flow],
  );
  const panTo = useCallback(
    (at: { x: number; y: number }) => {
      const rect = pane.current?.getBoundingClientRect();
      if (!rect) return;
      view.setViewport(centredViewport(at, rect.width, rect.height, Math.max(view.zoom(), 1)), 300);
    },
    [view],
  );
  const jumpTo = useCallback(
    (blockId: number) => {
      const centre = centreOf(blockId);
      if (!centre) return;
      panTo(centre);
      actions.select([blockId]);
    },
    [actions, centreOf, panTo],
  );
  useOpenOnBlock(openOnBlock, jumpTo, opening?.fitted ?? true);
  useEffect(() => {
    if (showBlock) jumpTo(showBlock.id);
  }, [showBlock, jumpTo]);
  // A problem's arrow: selected, and the canvas centred between its two blocks.
  const jumpToProblem = useCallback(
    (target: LintTarget) => {
      if (target.type === 'block') return jumpTo(target.id);
      const arrow = target.type === 'arrow' ? schema.arrows.find((a) => a.id === target.id) : undefined;
      const from = arrow && centreOf(arrow.from);
      const to = arrow && centreOf(arrow.to);
      if (!arrow || !from || !to) return;
      panTo({ x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 });
      actions.select([], [arrow.id]);
    },
    [actions, centreOf, jumpTo, panTo, schema],
  );

  // Not React Flow's fitView: it waits until every node is measured, and a big bot's blocks off
  // screen never are. Unmeasured blocks count at their usual size.
  const fitView = useCallback(() => {
    const rect = pane.current?.getBoundingClientRect();
    const bounds = nodesBounds(flow.getNodes());
    if (!rect || !bounds) return;
    view.setViewport(fittingViewport(bounds, rect.width, rect.height, FIT_ZOOM), 300);
  }, [flow, view]);
  // After an import the canvas shows the whole bot, once React Flow has the new nodes.
  const [fitRequest, setFitRequest] = useState(0);
  useLayoutEffect(() => {
    if (fitRequest) requestAnimationFrame(fitView);
  }, [fitRequest, fitView]);
  // Arrange lays the bot out by its blocks' drawn sizes, then shows it as the canvas opens: the
  // whole of it where that is readable, else the block being edited (or the start) at 40 %.
  const arrange = useCallback(() => {
    const sizes = new Map(flow.getNodes().map((n) => [blockIdOf(n.id), drawnSize(n)]));
    const arranged = actions.arrange((id) => sizes.get(id));
    const rect = pane.current?.getBoundingClientRect();
    if (!arranged || !rect) return;
    const focus = selection.blocks.length === 1 ? selection.blocks[0] : null;
    view.setViewport(openingView(arranged.blocks, rect.width, rect.height, FIT_ZOOM, focus).viewport, 300);
  }, [actions, flow, selection, view]);
  const replaceWith = useCallback(
    (imported: BotSchema) => {
      const replaced = actions.replaceWith(imported);
      if (replaced) setFitRequest((n) => n + 1);
      return replaced;
    },
    [actions],
  );
  const addBeside = useCallback(
    (imported: BotSchema) => actions.addBeside(imported) && setFitRequest((n) => n + 1),
    [actions],
  );
  const addStart = useCallback(() => addBlock('start'), [addBlock]);
  // Beside an empty bot: the template's ids are new, above any this bot ever used.
  const openTemplate = useCallback(() => addBeside(botSchemaSchema.parse(demoBotSchema)), [addBeside]);
  const copy = useCallback(() => {
    const text = actions.copySelection();
    if (text) void copyToClipboard(text);
  }, [actions]);
  const paste = useCallback(async () => {
    const text = await readClipboard();
    if (text) actions.paste(text);
  }, [actions]);
  const reload = useCallback(() => {
    editor.cancelSave();
    onReload();
  }, [editor.cancelSave, onReload]);
  const deleteBlock = useCallback((id: number) => actions.deleteItems([id]), [actions]);
  const deleteArrow = useCallback((id: number) => actions.deleteItems([], [id]), [actions]);

  const selectedBlock = useMemo(
    () =>
      selection.blocks.length === 1 && !selection.arrows.length
        ? schema.blocks.find((b) => b.id === selection.blocks[0])
        : undefined,
    [schema, selection],
  );
  const selectedArrow = useMemo(
    () =>
      selection.arrows.length === 1 && !selection.blocks.length
        ? schema.arrows.find((a) => a.id === selection.arrows[0])
        : undefined,
    [schema, selection],
  );
  // The selected block's buttons with their arrows, for the block editor's Buttons section.
  const buttonArrows = useMemo((): ButtonArrows | null => {
    if (!selectedBlock) return null;
    const blockTitle = (id: number) => {
      const name = schema.blocks.find((b) => b.id === id)?.name;
      return `#${id}${name ? ` ${name}` : ''}`;
    };
    return {
      ...buttonArrowsOf(selectedBlock, schema.arrows),
      out: schema.arrows
        .filter((a) => a.from === selectedBlock.id)
        .sort((a, b) => a.id - b.id)
        .map((arrow) => ({ arrow, label: arrowLabel(arrow) })),
      blockTitle,
      onArrowChange: actions.updateArrow,
      onRemoveArrow: actions.removeArrow,
      onOpenArrow: (id) => actions.select([], [id]),
      targets: schema.blocks.flatMap((b) =>
        b.kind === 'comment' ? [] : [{ id: b.id, title: blockTitle(b.id) }],
      ),
      onConnect: (to, handle) => actions.connect(selectedBlock.id, to, handle),
    };
  }, [actions, schema, selectedBlock]);
  // The block being edited stays in sight when the editor opening beside it narrows the canvas.
  useFollowBlock(selectedBlock?.id ?? null, pane, 0, view);
  const arrowEnds = useMemo(
    () =>
      selectedArrow
        ? {
            from: schema.blocks.find((b) => b.id === selectedArrow.from),
            to: schema.blocks.find((b) => b.id === selectedArrow.to),
          }
        : {},
    [schema, selectedArrow],
  );

  const saveState = editor.saveState;
  // The versions and Publish sit in the project's tab row, which has room, not in the toolbar.
  const [navSlot, setNavSlot] = useState<HTMLElement | null>(null);
  useEffect(() => setNavSlot(document.getElementById(PROJECT_NAV_SLOT)), []);
  // Fields the block and arrow editors hold back, by form: the toolbar says so, not "Saved".
  const [heldBackForms, setHeldBackForms] = useState<ReadonlyMap<string, number>>(new Map());
  const reportHeldBack = useCallback(
    (form: string, fields: number) =>
      setHeldBackForms((prev) => {
        if ((prev.get(form) ?? 0) === fields) return prev;
        const next = new Map(prev);
        if (fields) next.set(form, fields);
        else next.delete(form);
        return next;
      }),
    [],
  );
  let heldBack = 0;
  for (const fields of heldBackForms.values()) heldBack += fields;
  const editorPanel = useRef<HTMLDivElement>(null);
  const editorLayout = usePanelLayout('editor');
  const { setCollapsed: setEditorCollapsed } = editorLayout;
  // The first field with an error: focused and scrolled into view in the editor panel (opened).
  const showHeldBack = useCallback(() => {
    flushSync(() => setEditorCollapsed(false));
    const error = editorPanel.current?.querySelector<HTMLElement>('[id$="-error"], [aria-invalid="true"]');
    if (!error) return;
    const control = error.id.endsWith('-error') ? document.getElementById(error.id.slice(0, -6)) : error;
    (control ?? error).scrollIntoView({ block: 'center' });
    (control ?? error).focus();
  }, [setEditorCollapsed]);
  // The toolbar spans the canvas and the editor, so opening the editor neither wraps it nor
  // moves the canvas down; the palette sits beside the canvas rather than over its blocks.
  return (
    <div
      className="flex h-full min-w-0 flex-1 flex-col"
      data-testid="canvas"
      data-current-block={currentBlock ?? ''}
    >
      <PresenceOutlines others={presence.others} />
      {diffMarks ? <style>{diffMarksCss(diffMarks)}</style> : null}
      {coverage ? <style>{coverageCss(coverage.coverage)}</style> : null}
      {/* The simulator's current block, highlighted without re-rendering any node (after the
          diff's marks: the same rule, so this outline wins on a block that has both). */}
      {currentBlock !== null ? (
        <style>{`[data-block-id="${currentBlock}"] { outline: 3px solid #f59e0b; outline-offset: 2px; }`}</style>
      ) : null}
      {navSlot
        ? createPortal(
            <PublishControl
              projectId={projectId}
              saveState={saveState}
              heldBack={readOnly ? 0 : heldBack}
              canPublish={!readOnly}
              onDraftReplaced={reload}
              onShowDiff={setDiffMarks}
              onRestoreDraft={replaceWith}
            />,
            navSlot,
          )
        : null}
      <CanvasToolbar
        canUndo={editor.canUndo}
        canRedo={editor.canRedo}
        hasSelection={selection.blocks.length + selection.arrows.length > 0}
        onUndo={actions.undo}
        onRedo={actions.redo}
        onCopy={copy}
        onPaste={paste}
        onDuplicate={actions.duplicate}
        onDelete={actions.deleteSelection}
        onFitView={fitView}
        onArrange={arrange}
        canArrange={schema.blocks.length > 0}
        readOnly={viewOnly}
      >
        <SearchBox blocks={schema.blocks} onJump={jumpTo} />
        <ProblemsPanel problems={problems} onJump={jumpToProblem} />
        {readOnly ? (
          <span
            className="rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-800"
            data-testid="read-only-notice"
            title="Owners and admins edit the bot; operators see it and answer clients."
          >
            Read-only: only owners and admins edit the bot
          </span>
        ) : null}
        {versionView ? (
          <span
            className="rounded-md bg-sky-50 px-2 py-1 text-xs text-sky-800"
            data-testid="version-view-notice"
            title="The canvas shows the bot of the version whose analytics are open. Close Analytics to edit the draft."
          >
            Version {versionView.version}, read-only: close Analytics to edit the draft
          </span>
        ) : null}
        {readOnly ? null : (
          <>
            {versionView ? null : (
              <ImportExport
                projectId={projectId}
                blockCount={schema.blocks.length}
                onReplace={replaceWith}
                onAddBeside={addBeside}
              />
            )}
            <PresenceAvatars others={presence.others} />
            {presence.others.length ? (
              <PointersToggle shown={pointersShown.shown} onToggle={pointersShown.toggle} />
            ) : null}
            <SaveStateIndicator
              state={saveState}
              onRetry={editor.retrySave}
              heldBack={heldBack}
              onShowHeldBack={showHeldBack}
            />
          </>
        )}
      </CanvasToolbar>
      <div className="relative flex min-h-0 flex-1 max-md:flex-col">
        {saveState.status === 'conflict' || saveState.status === 'invalid' || editor.notice ? (
          <div className="absolute top-2 left-1/2 z-30 w-[32rem] max-w-[90%] -translate-x-1/2 shadow-lg">
            <Alert
              tone={
                saveState.status === 'conflict' || saveState.status === 'invalid'
                  ? 'error'
                  : editor.notice?.tone
              }
            >
              <div className="flex items-start gap-3">
                <span className="min-w-0 flex-1">
                  {saveState.status === 'conflict' || saveState.status === 'invalid'
                    ? saveState.message
                    : editor.notice?.text}
                </span>
                {saveState.status === 'conflict' ? (
                  <Button size="sm" onClick={reload}>
                    Reload
                  </Button>
                ) : saveState.status !== 'invalid' ? (
                  <>
                    {editor.notice?.takeBack ? (
                      <Button
                        size="sm"
                        onClick={() => editor.notice?.takeBack && actions.takeBack(editor.notice.takeBack)}
                      >
                        {editor.notice.takeBack.label}
                      </Button>
                    ) : null}
                    <Button size="sm" variant="ghost" onClick={actions.dismissNotice}>
                      Dismiss
                    </Button>
                  </>
                ) : null}
              </div>
            </Alert>
          </div>
        ) : null}
        {viewOnly ? null : <BlockPalette onAdd={addBlock} />}
        <div
          ref={pane}
          className="relative min-h-0 min-w-0 flex-1"
          onPointerMove={onPanePointerMove}
          onPointerLeave={onPanePointerLeave}
        >
          {diffMarks ? <DiffMarksBanner marks={diffMarks} onHide={() => setDiffMarks(null)} /> : null}
          {coverage ? <CoverageLegend coverage={coverage.coverage} version={coverage.version} /> : null}
          {schema.blocks.length ? null : readOnly ? (
            <EmptyReadOnlyCanvas />
          ) : (
            <EmptyCanvas onAddStart={addStart} onOpenTemplate={openTemplate} />
          )}
          {schema.blocks.length ? (
            <AnalyticsPanel
              projectId={projectId}
              blocks={versionView?.schema.blocks ?? schema.blocks}
              store={analyticsStore}
              onVersionShown={setAnalyticsVersion}
              shownVersion={versionView?.version ?? null}
            />
          ) : null}
          {opening ? (
            <FarZoomContext value={far}>
              <CurrentBlockContext value={currentBlockStore}>
                <LintStoreContext value={versionView ? noLintStore : lintStore}>
                  <AnalyticsStoreContext value={analyticsStore}>
                    <EditorFlow
                      nodesStore={versionView?.nodesStore ?? editor.nodesStore}
                      edges={versionView?.edges ?? editor.edges}
                      onNodesChange={versionView?.onNodesChange ?? editor.onNodesChange}
                      onEdgesChange={versionView ? undefined : editor.onEdgesChange}
                      onSelectionChange={versionView ? undefined : onSelectionChange}
                      onConnect={onConnect}
                      onConnectEnd={onConnectEnd}
                      onDragOver={onDragOver}
                      onDrop={onDrop}
                      nodesDraggable={!viewOnly}
                      noDragClassName={far ? FAR_NO_DRAG_CLASS : 'nodrag'}
                      nodesConnectable={!viewOnly}
                      elementsSelectable={!viewOnly}
                      nodeTypes={nodeTypes}
                      edgeTypes={edgeTypes}
                      deleteKeyCode={null}
                      selectionKeyCode="Shift"
                      multiSelectionKeyCode={multiSelectionKeys}
                      onlyRenderVisibleElements={schema.blocks.length > VISIBLE_ONLY_FROM}
                      defaultViewport={opening.viewport}
                      fitView={opening.fitted}
                      fitViewOptions={FIT}
                      minZoom={ZOOM.min}
                      maxZoom={ZOOM.max}
                    >
                      <Background />
                      <SelectedArrowLayers />
                      {pointersShown.shown ? (
                        <PresencePointers others={presence.others} store={presence.pointers} />
                      ) : null}
                      {viewOnly ? null : <FarDrag onNodesChange={editor.onNodesChange} />}
                      {minimap && minimapShown ? <BotMiniMap {...MINIMAP_SIZE} ariaLabel="Minimap" /> : null}
                      {/* In a row on a phone, where the canvas is short. */}
                      <Controls showFitView={false} orientation={wide ? 'vertical' : 'horizontal'}>
                        <ControlButton onClick={fitView} aria-label="Fit view" title="Fit view">
                          <Maximize aria-hidden style={OUTLINE_ICON} />
                        </ControlButton>
                        <ControlButton
                          onClick={toggleMinimap}
                          aria-label={minimapShown ? 'Hide the minimap' : 'Show the minimap'}
                          title={minimapShown ? 'Hide the minimap' : 'Show the minimap'}
                        >
                          {/* React Flow fills its controls' icons; this one is drawn with strokes. */}
                          <MapIcon aria-hidden style={OUTLINE_ICON} />
                        </ControlButton>
                      </Controls>
                    </EditorFlow>
                  </AnalyticsStoreContext>
                </LintStoreContext>
              </CurrentBlockContext>
            </FarZoomContext>
          ) : null}
        </div>
        <HeldBackContext value={reportHeldBack}>
          <EditorPanel
            title={viewOnly ? null : selectedBlock ? 'Block editor' : selectedArrow ? 'Arrow editor' : null}
            layout={editorLayout}
            panelRef={editorPanel}
          >
            {/* Read-only: a jump to a block (search, ?block=) shows it on the canvas, no editor. */}
            {viewOnly ? null : selectedBlock ? (
              <ButtonArrowsContext value={buttonArrows}>
                <BlockEditor block={selectedBlock} onChange={actions.updateBlock} onDelete={deleteBlock} />
              </ButtonArrowsContext>
            ) : selectedArrow ? (
              <ArrowEditor
                arrow={selectedArrow}
                from={arrowEnds.from}
                to={arrowEnds.to}
                onChange={actions.updateArrow}
                onDelete={deleteArrow}
              />
            ) : null}
          </EditorPanel>
        </HeldBackContext>
      </div>
    </div>
  );
}

'use client';

import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { inferRouterOutputs } from '@trpc/server';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Input, Select } from '@/components/ui/input';
import { messengerLabel } from '@/lib/client-display';
import { stageColorClasses } from '@/lib/crm/stage-colors';
import type { AppRouter } from '@/server/trpc/root';
import { DealPanel } from './deal-panel';
import { NewDealDialog } from './new-deal-dialog';
import { useDealStream } from './use-deal-stream';

type Outputs = inferRouterOutputs<AppRouter>['crm'];
type Funnel = Outputs['funnels'][number];
type Stage = Funnel['stages'][number];
export type Card = Outputs['column']['cards'][number];
export interface BoardFilters {
  assigneeId?: number;
  unassigned?: boolean;
  clientType?: number;
  text?: string;
}

const CARD_HEIGHT = 104;
/** A column's least width and the gap between columns (w-64, gap-3): how far one step scrolls. */
const COLUMN_STEP = 256 + 12;
const time = (d: Date | string | null) =>
  d ? new Date(d).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' }) : '—';

/**
 * The Deals tab (docs/crm.md): the chosen funnel's stages as columns of deal cards (`board`)
 * or its open deals as one table (`table`), with filters, the deal panel and live updates.
 * A card dragged to another column is moved by `crm.moveDeal`, which refuses when the deal
 * was moved meanwhile (the message says by whom). It opens on the funnel the member last
 * viewed (kept on the server, `crm.boardFunnel`), and "New deal" makes one by hand.
 */
export function DealsScreen({ projectId, view }: { projectId: number; view: 'board' | 'table' }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const funnels = useQuery(trpc.crm.funnels.queryOptions({ projectId }));
  const remembered = useQuery(trpc.crm.boardFunnel.queryOptions({ projectId }));
  const remember = useMutation(
    trpc.crm.rememberBoardFunnel.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.crm.boardFunnel.queryKey({ projectId }), saved),
    }),
  );
  const options = useQuery(trpc.clients.filterOptions.queryOptions({ projectId }));
  const [funnelId, setFunnelId] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [assignee, setAssignee] = useState('');
  const [clientType, setClientType] = useState('');
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [openDeal, setOpenDeal] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  // The funnel last viewed (a deleted one is forgotten: the first), once the server said which.
  const shownId = funnelId ?? remembered.data?.funnelId;
  const funnel = remembered.isPending
    ? undefined
    : (funnels.data?.find((f) => f.id === shownId) ?? funnels.data?.[0]);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const filters: BoardFilters = {
    ...(assignee === 'none' ? { unassigned: true } : assignee ? { assigneeId: Number(assignee) } : {}),
    ...(clientType ? { clientType: Number(clientType) } : {}),
    ...(search ? { text: search } : {}),
  };

  // Another operator, the bot or the API moved a deal: re-read the columns (a burst once).
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useDealStream(projectId, () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.crm.column.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.crm.funnels.queryKey({ projectId }) });
    }, 200);
  });

  return (
    <main className="flex h-full min-h-0 flex-col gap-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-end gap-2">
        <h1 className="mr-2 text-lg font-semibold text-slate-900">Deals</h1>
        <div className="w-44 max-w-full">
          <Select
            aria-label="Funnel"
            value={funnel?.id ?? ''}
            onChange={(e) => {
              setFunnelId(Number(e.target.value));
              remember.mutate({ projectId, funnelId: Number(e.target.value) });
            }}
          >
            {funnels.data?.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="w-40 max-w-full">
          <Select aria-label="Assignee" value={assignee} onChange={(e) => setAssignee(e.target.value)}>
            <option value="">Any assignee</option>
            <option value="none">Unassigned</option>
            {options.data?.members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="w-40 max-w-full">
          <Select aria-label="Messenger" value={clientType} onChange={(e) => setClientType(e.target.value)}>
            <option value="">Any messenger</option>
            {options.data?.messengers.map((m) => (
              <option key={m.clientType} value={m.clientType}>
                {m.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="w-56 max-w-full">
          <Input
            aria-label="Search clients"
            placeholder="Search by client name or id"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <Button className="ml-auto" disabled={!funnel} onClick={() => setCreating(true)}>
          <Plus className="size-4" aria-hidden /> New deal
        </Button>
      </div>
      {funnels.error ? <Alert tone="error">{funnels.error.message}</Alert> : null}
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {funnel && view === 'board' ? (
        <Board
          projectId={projectId}
          funnel={funnel}
          filters={filters}
          onOpen={setOpenDeal}
          onNotice={setNotice}
        />
      ) : null}
      {funnel && view === 'table' ? (
        <DealsTable projectId={projectId} funnel={funnel} filters={filters} onOpen={setOpenDeal} />
      ) : null}
      {openDeal ? (
        <DealPanel projectId={projectId} dealId={openDeal} onClose={() => setOpenDeal(null)} />
      ) : null}
      {creating && funnel ? (
        <NewDealDialog
          projectId={projectId}
          funnel={funnel}
          onClose={() => setCreating(false)}
          onCreated={(deal) => {
            setCreating(false);
            setNotice({
              tone: 'success',
              text: `Deal #${deal.dealId} for ${deal.client} created in “${deal.stage}”.`,
            });
            setOpenDeal(deal.dealId);
            // Its column, on a board scrolled elsewhere, comes into view.
            document
              .querySelector(`[data-stage-id="${deal.stateId}"]`)
              ?.scrollIntoView({ behavior: 'smooth', block: 'nearest', inline: 'nearest' });
            void queryClient.invalidateQueries({ queryKey: trpc.crm.column.pathKey() });
            void queryClient.invalidateQueries({ queryKey: trpc.crm.funnels.queryKey({ projectId }) });
          }}
        />
      ) : null}
    </main>
  );
}

function Board({
  projectId,
  funnel,
  filters,
  onOpen,
  onNotice,
}: {
  projectId: number;
  funnel: Funnel;
  filters: BoardFilters;
  onOpen: (dealId: number) => void;
  onNotice: (n: { tone: 'error' | 'success'; text: string } | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sensors = useSensors(
    // A short drag threshold, so a click opens the deal instead.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor),
  );
  const [moving, setMoving] = useState<number | null>(null);
  const move = useMutation(
    trpc.crm.moveDeal.mutationOptions({
      onSettled: () => {
        setMoving(null);
        return queryClient.invalidateQueries({ queryKey: trpc.crm.column.pathKey() });
      },
      onError: (e) => onNotice({ tone: 'error', text: e.message }),
      onSuccess: () => onNotice(null),
    }),
  );
  const stages = funnel.stages;
  const { scroller, more, step } = useSideScroll();
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const card = active.data.current as Card | undefined;
    const stateId = over?.data.current?.stateId as number | undefined;
    if (!card || !stateId || stateId === card.stateId) return;
    setMoving(card.dealId);
    move.mutate({ projectId, dealId: card.dealId, stateId, expectedStateId: card.stateId });
  };
  return (
    <DndContext sensors={sensors} onDragEnd={onDragEnd}>
      <div className="relative flex min-h-0 flex-1">
        <section
          ref={scroller}
          className="flex min-h-0 flex-1 gap-3 overflow-x-auto pb-2"
          aria-label={`${funnel.name} board`}
        >
          {stages.map((stage) => (
            <Column
              key={stage.id}
              projectId={projectId}
              stage={stage}
              filters={filters}
              cardVariables={funnel.cardVariables}
              moving={moving}
              onOpen={onOpen}
            />
          ))}
        </section>
        {more.left ? (
          <ScrollButton side="left" label="Show the columns to the left" onClick={() => step(-1)} />
        ) : null}
        {more.right ? (
          <ScrollButton side="right" label="Show the columns to the right" onClick={() => step(1)} />
        ) : null}
      </div>
    </DndContext>
  );
}

/**
 * A board wider than the screen scrolls sideways; whether columns are hidden on either side, and
 * a step of one column that way (for a mouse without a sideways wheel).
 */
function useSideScroll() {
  const scroller = useRef<HTMLElement | null>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = () =>
      setMore({
        left: el.scrollLeft > 1,
        right: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
      });
    update();
    el.addEventListener('scroll', update, { passive: true });
    // The board's size changes, and so does its width's content when stages come and go.
    const resized = new ResizeObserver(update);
    resized.observe(el);
    const changed = new MutationObserver(update);
    changed.observe(el, { childList: true });
    return () => {
      el.removeEventListener('scroll', update);
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
  const step = (direction: 1 | -1) =>
    scroller.current?.scrollBy({ left: direction * COLUMN_STEP, behavior: 'smooth' });
  return { scroller, more, step };
}

function ScrollButton({
  side,
  label,
  onClick,
}: {
  side: 'left' | 'right';
  label: string;
  onClick: () => void;
}) {
  const Icon = side === 'left' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        'absolute top-1/2 z-10 flex size-9 -translate-y-1/2 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-700 shadow-md hover:bg-slate-50',
        side === 'left' ? 'left-1' : 'right-1',
      )}
    >
      <Icon className="size-5" aria-hidden />
    </button>
  );
}

function Column({
  projectId,
  stage,
  filters,
  cardVariables,
  moving,
  onOpen,
}: {
  projectId: number;
  stage: Stage;
  filters: BoardFilters;
  cardVariables: string[];
  moving: number | null;
  onOpen: (dealId: number) => void;
}) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery(
    trpc.crm.column.infiniteQueryOptions(
      { projectId, stateId: stage.id, ...filters },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  const cards = useMemo(() => pages.data?.pages.flatMap((p) => p.cards) ?? [], [pages.data]);
  const total = pages.data?.pages[0]?.total ?? 0;
  const { setNodeRef, isOver } = useDroppable({ id: `stage-${stage.id}`, data: { stateId: stage.id } });
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtual = useVirtualizer({
    count: cards.length + (pages.hasNextPage ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT,
    overscan: 6,
  });
  const items = virtual.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= cards.length - 1 && pages.hasNextPage && !pages.isFetchingNextPage)
      void pages.fetchNextPage();
  }, [lastIndex, cards.length, pages]);
  const colors = stageColorClasses(stage.color);
  return (
    <section
      ref={setNodeRef}
      aria-label={`Stage ${stage.name}`}
      data-stage-id={stage.id}
      className={cn(
        // At least w-64 (COLUMN_STEP), sharing the width when the stages fit: five fit at 1440 px.
        'flex w-64 max-w-96 shrink-0 grow flex-col rounded-lg border border-t-4 border-slate-200 bg-slate-50',
        colors.edge,
        isOver && 'ring-2 ring-brand-400',
      )}
    >
      <header className="flex items-baseline justify-between gap-2 px-3 py-2">
        <h2 className="truncate text-sm font-semibold text-slate-800">{stage.name}</h2>
        <span className="text-xs text-slate-500" title={`Stage id ${stage.id}`}>
          {stage.kind === 'open' ? total : `${total} closed`}
        </span>
      </header>
      {pages.error ? (
        <p className="px-3 text-xs text-red-700" role="alert">
          {pages.error.message}
        </p>
      ) : null}
      <div ref={scroller} className="min-h-24 flex-1 overflow-y-auto px-2 pb-2">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const card = cards[item.index];
            return (
              <div
                key={card?.dealId ?? 'more'}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  transform: `translateY(${item.start}px)`,
                }}
                className="pb-2"
              >
                {card ? (
                  <DealCard
                    card={card}
                    variables={cardVariables}
                    moving={moving === card.dealId}
                    onOpen={onOpen}
                  />
                ) : (
                  <p className="p-2 text-center text-xs text-slate-500">Loading more…</p>
                )}
              </div>
            );
          })}
        </div>
        {pages.isSuccess && !cards.length ? (
          <p className="p-4 text-center text-xs text-slate-400">No deals</p>
        ) : null}
      </div>
    </section>
  );
}

function DealCard({
  card,
  variables,
  moving,
  onOpen,
}: {
  card: Card;
  variables: string[];
  moving: boolean;
  onOpen: (dealId: number) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `deal-${card.dealId}`,
    data: card,
    disabled: card.closedAt !== null,
  });
  const shown = variables.filter((v) => card.variables[v]);
  return (
    <button
      type="button"
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onClick={() => onOpen(card.dealId)}
      aria-label={`Deal #${card.dealId}: ${card.clientName}`}
      data-deal-id={card.dealId}
      style={transform ? { transform: `translate(${transform.x}px, ${transform.y}px)` } : undefined}
      className={cn(
        'block h-[96px] w-full touch-none overflow-hidden rounded-md border border-slate-200 bg-white p-2 text-left text-sm shadow-xs hover:border-brand-300',
        isDragging && 'relative z-10 shadow-lg',
        moving && 'opacity-60',
      )}
    >
      <div className="flex items-baseline justify-between gap-2">
        <span className="truncate font-medium text-slate-900">{card.clientName}</span>
        <span className="shrink-0 text-xs text-slate-500">{messengerLabel(card.clientType)}</span>
      </div>
      <div className="mt-0.5 flex justify-between gap-2 text-xs text-slate-500">
        <span className="truncate">{card.assignee ?? 'Unassigned'}</span>
        <span className="shrink-0" title="Last message">
          {time(card.lastMessageAt)}
        </span>
      </div>
      {shown.length ? (
        <dl className="mt-1 space-y-0.5 text-xs">
          {shown.slice(0, 2).map((v) => (
            <div key={v} className="flex gap-1 truncate">
              <dt className="text-slate-500">{v}:</dt>
              <dd className="truncate text-slate-800">{card.variables[v]}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-1 text-xs text-slate-400">Deal #{card.dealId}</p>
      )}
    </button>
  );
}

function DealsTable({
  projectId,
  funnel,
  filters,
  onOpen,
}: {
  projectId: number;
  funnel: Funnel;
  filters: BoardFilters;
  onOpen: (dealId: number) => void;
}) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery(
    trpc.crm.column.infiniteQueryOptions(
      { projectId, funnelId: funnel.id, ...filters },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  const rows = pages.data?.pages.flatMap((p) => p.cards) ?? [];
  const stageName = new Map(funnel.stages.map((s) => [s.id, s]));
  return (
    <div className="min-h-0 flex-1 overflow-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="sticky top-0 bg-slate-50 text-xs text-slate-500">
          <tr>
            <th className="px-3 py-2">Deal</th>
            <th className="px-3 py-2">Client</th>
            <th className="px-3 py-2">Stage</th>
            <th className="px-3 py-2">Messenger</th>
            <th className="px-3 py-2">Assignee</th>
            <th className="px-3 py-2">Last message</th>
            {funnel.cardVariables.map((v) => (
              <th key={v} className="px-3 py-2">
                {v}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const stage = stageName.get(r.stateId);
            return (
              <tr
                key={r.dealId}
                className="cursor-pointer hover:bg-slate-50"
                onClick={() => onOpen(r.dealId)}
              >
                <td className="px-3 py-2">
                  <button
                    type="button"
                    className="text-brand-700 hover:underline"
                    onClick={() => onOpen(r.dealId)}
                  >
                    #{r.dealId}
                  </button>
                </td>
                <td className="px-3 py-2">{r.clientName}</td>
                <td className="px-3 py-2">
                  <span className="inline-flex items-center gap-1.5">
                    <span className={cn('size-2 rounded-full', stageColorClasses(stage?.color ?? '').dot)} />
                    {stage?.name}
                  </span>
                </td>
                <td className="px-3 py-2">{messengerLabel(r.clientType)}</td>
                <td className="px-3 py-2">{r.assignee ?? '—'}</td>
                <td className="px-3 py-2 whitespace-nowrap">{time(r.lastMessageAt)}</td>
                {funnel.cardVariables.map((v) => (
                  <td key={v} className="max-w-48 truncate px-3 py-2">
                    {r.variables[v] ?? ''}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {pages.isSuccess && !rows.length ? (
        <p className="p-6 text-center text-sm text-slate-500">No open deals in this funnel match.</p>
      ) : null}
      {pages.hasNextPage ? (
        <div className="p-3 text-center">
          <button
            type="button"
            className="text-sm text-brand-700 hover:underline"
            disabled={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
          >
            {pages.isFetchingNextPage ? 'Loading…' : `Show more (${pages.data?.pages[0]?.total ?? 0} in all)`}
          </button>
        </div>
      ) : null}
    </div>
  );
}

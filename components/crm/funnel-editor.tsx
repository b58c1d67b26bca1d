'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { CopyButton } from '@/components/ui/copy-button';
import { Input, Select } from '@/components/ui/input';
import { STAGE_COLORS, stageColorClasses } from '@/lib/crm/stage-colors';
import type { AppRouter } from '@/server/trpc/root';

type Funnel = inferRouterOutputs<AppRouter>['crm']['funnels'][number];
type Stage = Funnel['stages'][number];

/**
 * The Funnels page (admins, docs/crm.md): funnels and their stages, created, renamed,
 * coloured, reordered and deleted; each stage's id shown and copyable for the API's
 * `set_order_state` and the formula's `change_state`.
 */
export function FunnelEditor({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const funnels = useQuery(trpc.crm.funnels.queryOptions({ projectId }));
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.crm.funnels.queryKey({ projectId }) });
  const options = {
    onSuccess: () => {
      setError(null);
      return refresh();
    },
    onError: (e: { message: string }) => setError(e.message),
  };
  const createFunnel = useMutation(
    trpc.crm.createFunnel.mutationOptions({
      ...options,
      onSuccess: (f) => {
        setChosen(f.id);
        return options.onSuccess();
      },
    }),
  );
  const reorderFunnels = useMutation(trpc.crm.reorderFunnels.mutationOptions(options));
  const [newFunnel, setNewFunnel] = useState('');
  const list = funnels.data ?? [];
  const funnel = list.find((f) => f.id === chosen) ?? list[0];

  const moveFunnel = (index: number, by: number) => {
    const order = list.map((f) => f.id);
    [order[index], order[index + by]] = [order[index + by], order[index]];
    reorderFunnels.mutate({ projectId, order });
  };

  return (
    <main className="mx-auto max-w-5xl space-y-4 p-4 sm:p-6">
      <div>
        <h1 className="text-lg font-semibold text-slate-900">Funnels</h1>
        <p className="text-sm text-slate-500">
          A funnel's stages are the board's columns. Won and lost close the deal. Integrators move a deal with
          a stage's id (<code>set_order_state</code>, <code>change_state()</code>, a block's actions).
        </p>
      </div>
      {funnels.error ? <Alert tone="error">{funnels.error.message}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
        <section aria-label="Funnels" className="space-y-2">
          <ul className="space-y-1">
            {list.map((f, i) => (
              <li key={f.id} className="flex items-center gap-1">
                <button
                  type="button"
                  onClick={() => setChosen(f.id)}
                  aria-current={f.id === funnel?.id ? 'true' : undefined}
                  className={cn(
                    'min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-left text-sm',
                    f.id === funnel?.id ? 'bg-brand-50 font-medium text-brand-700' : 'hover:bg-slate-100',
                  )}
                >
                  {f.name}
                </button>
                <IconButton label={`Move ${f.name} up`} disabled={i === 0} onClick={() => moveFunnel(i, -1)}>
                  <ArrowUp className="size-4" aria-hidden />
                </IconButton>
                <IconButton
                  label={`Move ${f.name} down`}
                  disabled={i === list.length - 1}
                  onClick={() => moveFunnel(i, 1)}
                >
                  <ArrowDown className="size-4" aria-hidden />
                </IconButton>
              </li>
            ))}
          </ul>
          <form
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              createFunnel.mutate({ projectId, name: newFunnel }, { onSuccess: () => setNewFunnel('') });
            }}
          >
            <Input
              aria-label="New funnel's name"
              placeholder="New funnel"
              value={newFunnel}
              onChange={(e) => setNewFunnel(e.target.value)}
            />
            <Button type="submit" variant="secondary" disabled={createFunnel.isPending}>
              Add
            </Button>
          </form>
        </section>
        {funnel ? (
          <FunnelDetail
            key={funnel.id}
            projectId={projectId}
            funnel={funnel}
            funnels={list}
            options={options}
            onDeleted={() => setChosen(null)}
          />
        ) : null}
      </div>
    </main>
  );
}

function IconButton({
  label,
  children,
  ...props
}: { label: string; children: React.ReactNode } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <Button variant="ghost" size="sm" aria-label={label} title={label} className="px-1.5" {...props}>
      {children}
    </Button>
  );
}

type MutationCallbacks = { onSuccess: () => Promise<void>; onError: (e: { message: string }) => void };

function FunnelDetail({
  projectId,
  funnel,
  funnels,
  options,
  onDeleted,
}: {
  projectId: number;
  funnel: Funnel;
  funnels: Funnel[];
  options: MutationCallbacks;
  onDeleted: () => void;
}) {
  const trpc = useTRPC();
  const updateFunnel = useMutation(trpc.crm.updateFunnel.mutationOptions(options));
  const deleteFunnel = useMutation(
    trpc.crm.deleteFunnel.mutationOptions({
      ...options,
      onSuccess: () => {
        onDeleted();
        return options.onSuccess();
      },
    }),
  );
  const createStage = useMutation(trpc.crm.createStage.mutationOptions(options));
  const reorderStages = useMutation(trpc.crm.reorderStages.mutationOptions(options));
  const [name, setName] = useState(funnel.name);
  const [cardVariables, setCardVariables] = useState(funnel.cardVariables.join(', '));
  const [newStage, setNewStage] = useState('');
  const [newColor, setNewColor] = useState<string>('slate');
  const [deleting, setDeleting] = useState(false);
  const deals = funnel.stages.reduce((n, s) => n + s.deals, 0);
  const elsewhere = funnels
    .filter((f) => f.id !== funnel.id)
    .flatMap((f) => f.stages.filter((s) => s.kind === 'open').map((s) => ({ ...s, funnel: f.name })));
  const [moveTo, setMoveTo] = useState<number | null>(null);
  const ids = { name: useId(), vars: useId(), stage: useId() };
  useEffect(() => setName(funnel.name), [funnel.name]);

  const moveStage = (index: number, by: number) => {
    const order = funnel.stages.map((s) => s.id);
    [order[index], order[index + by]] = [order[index + by], order[index]];
    reorderStages.mutate({ projectId, funnelId: funnel.id, order });
  };

  return (
    <section
      aria-label={`Funnel ${funnel.name}`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1 space-y-1">
          <label htmlFor={ids.name} className="block text-sm font-medium text-slate-700">
            Funnel name
          </label>
          <Input
            id={ids.name}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() =>
              name !== funnel.name && updateFunnel.mutate({ projectId, funnelId: funnel.id, name })
            }
            onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
          />
        </div>
        <Button variant="secondary" onClick={() => setDeleting((d) => !d)} disabled={funnels.length === 1}>
          <Trash2 className="size-4" aria-hidden /> Delete funnel
        </Button>
      </div>
      {deleting ? (
        <div className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
          <p>
            Delete "{funnel.name}"
            {deals ? ` and move its ${deals} deal${deals === 1 ? '' : 's'} to` : ' (it holds no deals)'}?
          </p>
          {deals ? (
            <Select
              aria-label="Move the deals to"
              value={moveTo ?? ''}
              onChange={(e) => setMoveTo(Number(e.target.value) || null)}
            >
              <option value="">Choose a stage of another funnel…</option>
              {elsewhere.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.funnel}: {s.name}
                </option>
              ))}
            </Select>
          ) : null}
          <div className="flex gap-2">
            <Button
              variant="danger"
              size="sm"
              disabled={deleteFunnel.isPending || (deals > 0 && !moveTo)}
              onClick={() => deleteFunnel.mutate({ projectId, funnelId: funnel.id, moveToStateId: moveTo })}
            >
              Delete
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setDeleting(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}

      <ol className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {funnel.stages.map((stage, i) => (
          <StageRow
            key={stage.id}
            projectId={projectId}
            stage={stage}
            siblings={funnel.stages}
            options={options}
            first={i === 0}
            last={i === funnel.stages.length - 1}
            onMove={(by) => moveStage(i, by)}
          />
        ))}
      </ol>

      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          createStage.mutate(
            { projectId, funnelId: funnel.id, name: newStage, color: newColor },
            { onSuccess: () => setNewStage('') },
          );
        }}
      >
        <div className="min-w-48 flex-1 space-y-1">
          <label htmlFor={ids.stage} className="block text-sm font-medium text-slate-700">
            New stage
          </label>
          <Input
            id={ids.stage}
            placeholder="e.g. Invoice sent"
            value={newStage}
            onChange={(e) => setNewStage(e.target.value)}
          />
        </div>
        <ColorSelect value={newColor} onChange={setNewColor} label="New stage's colour" />
        <Button type="submit" disabled={createStage.isPending}>
          Add stage
        </Button>
      </form>

      <div className="space-y-1">
        <label htmlFor={ids.vars} className="block text-sm font-medium text-slate-700">
          Deal variables on the board's cards
        </label>
        <Input
          id={ids.vars}
          placeholder="e.g. product, price"
          value={cardVariables}
          onChange={(e) => setCardVariables(e.target.value)}
          onBlur={() =>
            updateFunnel.mutate({
              projectId,
              funnelId: funnel.id,
              cardVariables: cardVariables
                .split(',')
                .map((v) => v.trim())
                .filter(Boolean),
            })
          }
        />
        <p className="text-xs text-slate-500">Up to 5 names, separated by commas.</p>
      </div>
    </section>
  );
}

function ColorSelect({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (c: string) => void;
  label: string;
}) {
  return (
    <div className="flex items-center gap-1.5">
      <span aria-hidden className={cn('size-3 shrink-0 rounded-full', stageColorClasses(value).dot)} />
      <Select
        aria-label={label}
        value={value || 'slate'}
        onChange={(e) => onChange(e.target.value)}
        className="w-28"
      >
        {STAGE_COLORS.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Select>
    </div>
  );
}

function StageRow({
  projectId,
  stage,
  siblings,
  options,
  first,
  last,
  onMove,
}: {
  projectId: number;
  stage: Stage;
  siblings: Stage[];
  options: MutationCallbacks;
  first: boolean;
  last: boolean;
  onMove: (by: number) => void;
}) {
  const trpc = useTRPC();
  const update = useMutation(trpc.crm.updateStage.mutationOptions(options));
  const remove = useMutation(trpc.crm.deleteStage.mutationOptions(options));
  const [name, setName] = useState(stage.name);
  const [deleting, setDeleting] = useState(false);
  const [moveTo, setMoveTo] = useState<number | null>(null);
  useEffect(() => setName(stage.name), [stage.name]);
  const targets = siblings.filter((s) => s.id !== stage.id && s.kind === 'open');
  return (
    <li className="space-y-2 p-2">
      <div className="flex flex-wrap items-center gap-2">
        <ColorSelect
          value={stage.color}
          onChange={(color) => update.mutate({ projectId, stateId: stage.id, color })}
          label={`${stage.name}'s colour`}
        />
        <Input
          aria-label={`Stage name (${stage.name})`}
          className="min-w-24 flex-1"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => name !== stage.name && update.mutate({ projectId, stateId: stage.id, name })}
          onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
        />
        {stage.kind !== 'open' ? (
          <span
            title="A deal moved here is closed"
            className={cn(
              'rounded-full px-2 py-0.5 text-xs font-medium',
              stage.kind === 'won' ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800',
            )}
          >
            {stage.kind === 'won' ? 'Won' : 'Lost'}: closes
          </span>
        ) : null}
        <span className="text-xs text-slate-500">
          {stage.deals} deal{stage.deals === 1 ? '' : 's'}
        </span>
        <span className="font-mono text-xs text-slate-600" title="The stage's id (state_id)">
          id {stage.id}
        </span>
        <CopyButton value={String(stage.id)} label="Copy id" />
        <IconButton label={`Move ${stage.name} up`} disabled={first} onClick={() => onMove(-1)}>
          <ArrowUp className="size-4" aria-hidden />
        </IconButton>
        <IconButton label={`Move ${stage.name} down`} disabled={last} onClick={() => onMove(1)}>
          <ArrowDown className="size-4" aria-hidden />
        </IconButton>
        {stage.kind === 'open' ? (
          <IconButton label={`Delete ${stage.name}`} onClick={() => setDeleting((d) => !d)}>
            <Trash2 className="size-4" aria-hidden />
          </IconButton>
        ) : null}
      </div>
      {deleting ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 p-2 text-sm">
          <span>
            Delete "{stage.name}"
            {stage.deals ? ` and move its ${stage.deals} deal${stage.deals === 1 ? '' : 's'} to` : '?'}
          </span>
          {stage.deals ? (
            <Select
              aria-label={`Move ${stage.name}'s deals to`}
              className="w-48"
              value={moveTo ?? ''}
              onChange={(e) => setMoveTo(Number(e.target.value) || null)}
            >
              <option value="">Choose a stage…</option>
              {targets.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Select>
          ) : null}
          <Button
            variant="danger"
            size="sm"
            disabled={remove.isPending || (stage.deals > 0 && !moveTo)}
            onClick={() => remove.mutate({ projectId, stateId: stage.id, moveToStateId: moveTo })}
          >
            Delete stage
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setDeleting(false)}>
            Cancel
          </Button>
        </div>
      ) : null}
    </li>
  );
}

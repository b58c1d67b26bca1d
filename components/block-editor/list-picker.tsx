'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { IdListField } from './fields';

/**
 * The lists a block action names, picked from the project's own by name (each shown with its
 * id), with a new list created inline; an id the project no longer has is shown as such. Off a
 * project's page (no project id) it falls back to typing ids.
 */
export function ListPicker({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: readonly number[];
  onChange(value: number[]): void;
}) {
  const params = useParams<{ projectId?: string }>();
  const projectId = Number(params?.projectId);
  if (!Number.isSafeInteger(projectId) || projectId <= 0)
    return <IdListField id={id} label={label} value={value} onChange={onChange} />;
  return <ProjectListPicker projectId={projectId} id={id} label={label} value={value} onChange={onChange} />;
}

function ProjectListPicker({
  projectId,
  id,
  label,
  value,
  onChange,
}: {
  projectId: number;
  id: string;
  label: string;
  value: readonly number[];
  onChange(value: number[]): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lists = useQuery(trpc.lists.all.queryOptions({ projectId }));
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.lists.create.mutationOptions({
      onSuccess: async (list) => {
        onChange([...value, list.id]);
        setName('');
        setCreating(false);
        await queryClient.invalidateQueries({ queryKey: trpc.lists.all.queryKey() });
      },
    }),
  );
  const byId = new Map((lists.data ?? []).map((l) => [l.id, l]));
  const offered = (lists.data ?? []).filter((l) => !value.includes(l.id));
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {value.length ? (
        <ul className="flex flex-wrap gap-1" aria-label={`${label}: chosen`}>
          {value.map((listId) => {
            const list = byId.get(listId);
            const gone = lists.isSuccess && !list;
            return (
              <li
                key={listId}
                className={
                  gone
                    ? 'flex items-center gap-1 rounded border border-red-200 bg-red-50 px-1.5 py-0.5 text-xs text-red-800'
                    : 'flex items-center gap-1 rounded border border-slate-200 bg-slate-50 px-1.5 py-0.5 text-xs text-slate-800'
                }
              >
                {gone ? `List ${listId} (deleted)` : `${list?.name ?? '…'} (id ${listId})`}
                <button
                  type="button"
                  aria-label={`Remove ${list?.name ?? `list ${listId}`} from ${label}`}
                  className="rounded p-0.5 hover:bg-slate-200"
                  onClick={() => onChange(value.filter((x) => x !== listId))}
                >
                  <X className="size-3" aria-hidden />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <div className="flex gap-1">
        <Select
          id={id}
          value=""
          onChange={(e) => {
            if (e.target.value === 'new') setCreating(true);
            else if (e.target.value) onChange([...value, Number(e.target.value)]);
          }}
        >
          <option value="">{offered.length ? 'Choose a list…' : 'No other list yet'}</option>
          {offered.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name} (id {l.id})
            </option>
          ))}
          <option value="new">+ New list…</option>
        </Select>
      </div>
      {creating ? (
        <div className="flex gap-1">
          <Input
            aria-label={`New list name for ${label}`}
            placeholder="New list name"
            maxLength={100}
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              // The block editor is a form: Enter creates the list, not the form's submit.
              if (e.key === 'Enter') {
                e.preventDefault();
                if (name.trim()) create.mutate({ projectId, name });
              }
            }}
          />
          <Button
            size="sm"
            className="h-9"
            disabled={!name.trim() || create.isPending}
            onClick={() => create.mutate({ projectId, name })}
          >
            Create
          </Button>
          <Button variant="ghost" size="sm" className="h-9" onClick={() => setCreating(false)}>
            Cancel
          </Button>
        </div>
      ) : null}
      {create.error ? (
        <p role="alert" className="text-xs text-red-600">
          {create.error.message}
        </p>
      ) : null}
    </div>
  );
}

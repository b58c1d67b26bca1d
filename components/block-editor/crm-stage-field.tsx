'use client';

import { useQuery } from '@tanstack/react-query';
import { useProjectId } from '@/components/projects/use-project-id';
import { useTRPC } from '@/components/trpc/client';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { NumberField } from './fields';

const HINT =
  "Moves the client's deal to this stage (won and lost close it). The stage's id is the API's set_order_state state_id; funnels and stages are edited on the Deals tab's Funnels page.";

/**
 * A block action's CRM stage, chosen from the project's funnels and stages by name with its id
 * shown (never typed). A stage that no longer exists stays shown as such until another is
 * chosen (lint flags it too). Outside a project's page (no funnels to read), the id is typed.
 */
export function CrmStageField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number | undefined;
  onChange(value: number | undefined): void;
}) {
  const projectId = useProjectId();
  const trpc = useTRPC();
  const funnels = useQuery({
    ...trpc.crm.funnels.queryOptions({ projectId: projectId ?? 0 }),
    enabled: projectId !== null,
  });
  if (projectId === null)
    return <NumberField id={id} label="CRM stage id" value={value} min={1} hint={HINT} onChange={onChange} />;
  const known = funnels.data?.some((f) => f.stages.some((s) => s.id === value));
  const missing = value !== undefined && funnels.isSuccess && !known;
  return (
    <Field
      id={id}
      label="Move the deal to CRM stage"
      hint={HINT}
      error={missing ? `Stage ${value} no longer exists: choose another, or none.` : null}
    >
      <Select
        id={id}
        value={value ?? ''}
        aria-invalid={missing || undefined}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}
      >
        <option value="">None (the deal stays where it is)</option>
        {missing ? <option value={value}>Deleted stage (id {value})</option> : null}
        {funnels.data?.map((f) => (
          <optgroup key={f.id} label={f.name}>
            {f.stages.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
                {s.kind !== 'open' ? ` (${s.kind}, closes the deal)` : ''} · id {s.id}
              </option>
            ))}
          </optgroup>
        ))}
      </Select>
    </Field>
  );
}

'use client';

import type { BlockActions } from '@/lib/schema';
import { CrmStageField } from './crm-stage-field';
import { Section } from './fields';
import { ListPicker } from './list-picker';

/** Block actions, run first on entering (bot-semantics §1): the deal's CRM state and client lists. */
export function ActionsFields({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: BlockActions | undefined;
  onChange(value: BlockActions | undefined): void;
}) {
  const current: BlockActions = value ?? { addToLists: [], removeFromLists: [] };
  const emit = (next: BlockActions) =>
    onChange(next.crmStateId || next.addToLists.length || next.removeFromLists.length ? next : undefined);
  return (
    <Section title="Actions">
      <CrmStageField
        id={`${idPrefix}-crm-state`}
        value={current.crmStateId}
        onChange={(crmStateId) => emit({ ...current, crmStateId })}
      />
      <ListPicker
        id={`${idPrefix}-add-lists`}
        label="Add to lists"
        value={current.addToLists}
        onChange={(addToLists) => emit({ ...current, addToLists })}
      />
      <ListPicker
        id={`${idPrefix}-remove-lists`}
        label="Remove from lists"
        value={current.removeFromLists}
        onChange={(removeFromLists) => emit({ ...current, removeFromLists })}
      />
    </Section>
  );
}

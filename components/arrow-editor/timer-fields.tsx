'use client';

import { NumberField } from '@/components/block-editor/fields';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { TIMER_UNITS, type Timer } from '@/lib/schema';
import type { FieldErrors } from '@/lib/schema/validate';

export const defaultTimer = (): Timer => ({ delay: 1, unit: 'minutes' });

/** A timer: after a delay in seconds, minutes, hours or days, or at `dd.mm.yyyy hh:mm`. */
export function TimerFields({
  idPrefix,
  value,
  onChange,
  errors,
}: {
  idPrefix: string;
  value: Timer;
  onChange(value: Timer): void;
  errors: FieldErrors;
}) {
  const id = (name: string) => `${idPrefix}-timer-${name}`;
  const atDate = 'at' in value;
  return (
    <div className="space-y-3">
      <Field id={id('mode')} label="Fires">
        <Select
          id={id('mode')}
          value={atDate ? 'at' : 'delay'}
          onChange={(e) => onChange(e.target.value === 'at' ? { at: '' } : defaultTimer())}
        >
          <option value="delay">After a delay</option>
          <option value="at">At a date and time</option>
        </Select>
      </Field>
      {'at' in value ? (
        <Field
          id={id('at')}
          label="Date and time"
          hint="dd.mm.yyyy hh:mm in the project's time zone; #{variables} allowed"
          error={errors.at}
        >
          <Input
            id={id('at')}
            value={value.at}
            placeholder="31.12.2026 09:30"
            aria-invalid={errors.at ? true : undefined}
            onChange={(e) => onChange({ at: e.target.value })}
          />
        </Field>
      ) : (
        <div className="grid grid-cols-2 gap-2">
          <NumberField
            id={id('delay')}
            label="Delay"
            integer={false}
            optional={false}
            value={value.delay}
            onChange={(delay) => onChange({ ...value, delay: delay ?? 0 })}
          />
          <Field id={id('unit')} label="Unit">
            <Select
              id={id('unit')}
              value={value.unit}
              onChange={(e) => onChange({ ...value, unit: e.target.value as (typeof TIMER_UNITS)[number] })}
            >
              {TIMER_UNITS.map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
    </div>
  );
}

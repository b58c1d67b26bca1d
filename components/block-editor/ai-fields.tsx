'use client';

import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { type BlockAi, blockAiSchema } from '@/lib/ai/block-ai';
import { CheckboxField, NumberField, Section } from './fields';

/**
 * The block's AI step and AI choice of arrow (docs/ai.md). Off until a prompt is written or the
 * choice is ticked; clearing both removes the block's AI settings.
 */
export function AiFields({
  idPrefix,
  value,
  errors,
  onChange,
}: {
  idPrefix: string;
  value: BlockAi | undefined;
  errors: Record<string, string>;
  onChange(value: BlockAi | undefined, field: string): void;
}) {
  const ai = value ?? blockAiSchema.parse({});
  const id = (name: string) => `${idPrefix}-${name}`;
  const set = (patch: Partial<BlockAi>, field: string) => {
    const next = { ...ai, ...patch };
    onChange(next.prompt.trim() || next.chooseArrow ? next : undefined, field);
  };
  const on = Boolean(value);
  return (
    <Section title="AI">
      <Field
        id={id('prompt')}
        label="Prompt"
        error={errors.prompt}
        hint="Sent to the model with the conversation's last messages when a client enters the block; #{variables} are filled in. Needs the AI plan and a provider (Settings, AI)."
      >
        <Textarea
          id={id('prompt')}
          rows={3}
          value={ai.prompt}
          placeholder="e.g. Suggest a dish for #{client.name} from today's menu: #{menu}"
          onChange={(e) => set({ prompt: e.target.value }, 'ai.prompt')}
        />
      </Field>
      {on && ai.prompt.trim() ? (
        <>
          <Field id={id('system')} label="System prompt (optional)" error={errors.system}>
            <Textarea
              id={id('system')}
              rows={2}
              value={ai.system}
              onChange={(e) => set({ system: e.target.value }, 'ai.system')}
            />
          </Field>
          <CheckboxField
            id={id('send')}
            label="Send the answer as the block's message (in place of its text)"
            checked={ai.sendAnswer}
            onChange={(sendAnswer) => set({ sendAnswer }, 'ai.sendAnswer')}
          />
          <Field
            id={id('save')}
            label="Store the answer in (optional)"
            error={errors.saveInto}
            hint="A variable name, e.g. suggestion or client.summary."
          >
            <Input
              id={id('save')}
              value={ai.saveInto}
              onChange={(e) => set({ saveInto: e.target.value.trim() }, 'ai.saveInto')}
            />
          </Field>
          <Field
            id={id('fields')}
            label="Fill variables from one structured answer (optional)"
            error={errors.fields}
            hint="One per line: variable:type (string, number or boolean) - what it holds. E.g. city:string - the delivery city"
          >
            <Textarea
              id={id('fields')}
              rows={2}
              defaultValue={ai.fields
                .map((f) => `${f.variable}:${f.type}${f.description ? ` - ${f.description}` : ''}`)
                .join('\n')}
              onChange={(e) => set({ fields: parseFields(e.target.value) }, 'ai.fields')}
            />
          </Field>
          <div className="grid grid-cols-3 gap-2">
            <NumberField
              id={id('history')}
              label="History"
              value={ai.history}
              optional={false}
              onChange={(history) => set({ history: history ?? 10 }, 'ai.history')}
            />
            <NumberField
              id={id('temp')}
              label="Temperature"
              value={ai.temperature}
              integer={false}
              optional={false}
              onChange={(temperature) => set({ temperature: temperature ?? 0.7 }, 'ai.temperature')}
            />
            <NumberField
              id={id('tokens')}
              label="Max tokens"
              value={ai.maxTokens}
              min={1}
              optional={false}
              onChange={(maxTokens) => set({ maxTokens: maxTokens ?? 500 }, 'ai.maxTokens')}
            />
          </div>
          <CheckboxField
            id={id('knowledge')}
            label="Give the model the knowledge base's best excerpts"
            checked={ai.useKnowledge}
            onChange={(useKnowledge) => set({ useKnowledge }, 'ai.useKnowledge')}
          />
        </>
      ) : null}
      <CheckboxField
        id={id('choose')}
        label="AI choice of arrow: a reply no condition arrow matches is matched by the model, by the arrows' descriptions"
        checked={ai.chooseArrow}
        onChange={(chooseArrow) => set({ chooseArrow }, 'ai.chooseArrow')}
      />
      {on ? (
        <>
          <Field
            id={id('provider')}
            label="Provider (optional)"
            hint="A provider's name from Settings, AI; empty: the default."
          >
            <Input
              id={id('provider')}
              value={ai.provider}
              onChange={(e) => set({ provider: e.target.value.trim() }, 'ai.provider')}
            />
          </Field>
          <NumberField
            id={id('fallback')}
            label="Fallback block id (optional)"
            hint="Where the client goes when the AI cannot answer: no plan, the daily limit, a timeout, the provider's error."
            value={ai.fallbackBlockId}
            min={1}
            onChange={(fallbackBlockId) => set({ fallbackBlockId }, 'ai.fallbackBlockId')}
          />
        </>
      ) : null}
    </Section>
  );
}

/** `variable:type - description` lines; the schema's validation reports a bad name or type. */
function parseFields(text: string): BlockAi['fields'] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [head, ...rest] = line.split(' - ');
      const [variable, type = 'string'] = head.split(':').map((s) => s.trim());
      return {
        variable,
        type: type as BlockAi['fields'][number]['type'],
        description: rest.join(' - ').trim(),
      };
    });
}

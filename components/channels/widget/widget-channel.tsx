'use client';

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { WIDGET_POSITIONS, WIDGET_THEMES, type WidgetSettings } from '@/lib/widget/settings';

const THEME_LABELS: Record<(typeof WIDGET_THEMES)[number], string> = {
  auto: 'Follow the visitor’s system',
  light: 'Light',
  dark: 'Dark',
};

/** One chat widget on the Channels tab: the snippet to paste, and (for managers) its settings. */
export function WidgetChannel({
  projectId,
  channelId,
  widget,
  canManage,
  onSaved,
}: {
  projectId: number;
  channelId: number;
  widget: { settings: WidgetSettings; snippet: string };
  canManage: boolean;
  onSaved: () => unknown;
}) {
  const trpc = useTRPC();
  const [form, setForm] = useState({
    ...widget.settings,
    origins: widget.settings.allowedOrigins.join('\n'),
  });
  const save = useMutation(trpc.channels.update.mutationOptions({ onSuccess: onSaved }));
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const id = (name: string) => `widget-${channelId}-${name}`;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const { origins, ...settings } = form;
    save.mutate({
      kind: 'widget',
      projectId,
      channelId,
      settings: { ...settings, allowedOrigins: origins.split(/[\s,]+/).filter(Boolean) },
    });
  }

  return (
    <div className="space-y-3">
      <div className="space-y-1">
        <p className="text-sm font-medium text-slate-700">
          Paste this line into your site’s pages, before &lt;/body&gt;:
        </p>
        <div className="flex items-start gap-2">
          <code
            className="block flex-1 break-all rounded bg-slate-100 p-2 text-xs"
            data-testid="widget-snippet"
          >
            {widget.snippet}
          </code>
          <CopyButton value={widget.snippet} />
        </div>
        {widget.settings.allowedOrigins.length === 0 ? (
          <Alert tone="info">
            The widget works on no site yet: add your site’s address to the allowed origins.
          </Alert>
        ) : null}
      </div>
      {canManage ? (
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={onSubmit} aria-label="Chat widget settings">
          <Field id={id('title')} label="Title">
            <Input
              id={id('title')}
              value={form.title}
              maxLength={80}
              onChange={(e) => set('title', e.target.value)}
            />
          </Field>
          <Field id={id('position')} label="Position">
            <Select
              id={id('position')}
              value={form.position}
              onChange={(e) => set('position', e.target.value as WidgetSettings['position'])}
            >
              {WIDGET_POSITIONS.map((p) => (
                <option key={p} value={p}>
                  Bottom {p}
                </option>
              ))}
            </Select>
          </Field>
          <div className="sm:col-span-2">
            <Field
              id={id('greeting')}
              label="Greeting"
              hint="Shown at the top of a new dialog; empty for none."
            >
              <Textarea
                id={id('greeting')}
                rows={2}
                maxLength={500}
                value={form.greeting}
                onChange={(e) => set('greeting', e.target.value)}
              />
            </Field>
          </div>
          <Field id={id('accent')} label="Accent colour">
            <div className="w-20">
              <Input
                id={id('accent')}
                type="color"
                className="h-9 p-1"
                value={form.accentColor}
                onChange={(e) => set('accentColor', e.target.value)}
              />
            </div>
          </Field>
          <Field id={id('text')} label="Text on the accent">
            <div className="w-20">
              <Input
                id={id('text')}
                type="color"
                className="h-9 p-1"
                value={form.textColor}
                onChange={(e) => set('textColor', e.target.value)}
              />
            </div>
          </Field>
          <Field id={id('theme')} label="Theme">
            <Select
              id={id('theme')}
              value={form.theme}
              onChange={(e) => set('theme', e.target.value as WidgetSettings['theme'])}
            >
              {WIDGET_THEMES.map((t) => (
                <option key={t} value={t}>
                  {THEME_LABELS[t]}
                </option>
              ))}
            </Select>
          </Field>
          <div className="sm:col-span-2">
            <Field
              id={id('origins')}
              label="Allowed origins"
              hint="The sites the widget works on, one per line, such as https://shop.example (or * for every site). Any other site gets nothing."
            >
              <Textarea
                id={id('origins')}
                rows={3}
                value={form.origins}
                placeholder="https://shop.example"
                onChange={(e) => set('origins', e.target.value)}
              />
            </Field>
          </div>
          <div className="flex items-center gap-3 sm:col-span-2">
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save widget'}
            </Button>
            {save.isSuccess && !save.isPending ? (
              <span className="text-sm text-green-700" role="status">
                Saved
              </span>
            ) : null}
          </div>
          {save.error ? (
            <div className="sm:col-span-2">
              <Alert tone="error">{save.error.message}</Alert>
            </div>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}

'use client';

import { useMutation } from '@tanstack/react-query';
import { Download, Upload, X } from 'lucide-react';
import { memo, useRef } from 'react';
import { useTRPC, useTRPCClient } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * Import and export of the bot schema JSON (the CLI's format). Import errors name the field
 * (`blocks[0].kind: …`); a successful import reloads the canvas through `onImported`.
 */
export const ImportExport = memo(function ImportExport({
  projectId,
  onImported,
}: {
  projectId: number;
  onImported(): void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const importSchema = useMutation(trpc.botSchema.import.mutationOptions({ onSuccess: () => onImported() }));
  const exportSchema = useMutation({
    mutationFn: async () => {
      const { json } = await client.botSchema.export.query({ projectId });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
      link.download = `bot-${projectId}.json`;
      link.click();
      URL.revokeObjectURL(link.href);
    },
  });
  const error = importSchema.error ?? exportSchema.error;

  return (
    <div className="relative flex gap-1">
      <Button
        variant="secondary"
        size="sm"
        onClick={() => exportSchema.mutate()}
        disabled={exportSchema.isPending}
      >
        <Download className="size-3.5" aria-hidden />
        Export JSON
      </Button>
      <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()}>
        <Upload className="size-3.5" aria-hidden />
        Import JSON
      </Button>
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        aria-label="Bot schema file"
        className="hidden"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) importSchema.mutate({ projectId, json: await file.text() });
        }}
      />
      {error ? (
        <div className="absolute top-full right-0 z-30 mt-2 w-[28rem] max-w-[80vw]">
          <Alert tone="error">
            <div className="flex items-start gap-2">
              <div className="min-w-0 flex-1 font-mono text-xs">{error.message}</div>
              <button
                type="button"
                aria-label="Dismiss"
                className="shrink-0"
                onClick={() => {
                  importSchema.reset();
                  exportSchema.reset();
                }}
              >
                <X className="size-4" aria-hidden />
              </button>
            </div>
          </Alert>
        </div>
      ) : null}
    </div>
  );
});

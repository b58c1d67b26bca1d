'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTRPC, useTRPCClient } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** Import and export of the bot schema JSON (the CLI's format); import errors name the field. */
export function ImportExport({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const importSchema = useMutation(
    trpc.botSchema.import.mutationOptions({
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: trpc.botSchema.get.queryKey({ projectId }) }),
    }),
  );

  async function exportSchema() {
    const { json } = await client.botSchema.export.query({ projectId });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    link.download = `bot-${projectId}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  return (
    <div className="absolute top-3 left-3 z-10 flex max-w-md flex-col gap-2">
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" onClick={exportSchema}>
          Export JSON
        </Button>
        <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()}>
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
      </div>
      {importSchema.error ? <Alert tone="error">{importSchema.error.message}</Alert> : null}
      {importSchema.isSuccess ? <Alert tone="success">The bot was imported.</Alert> : null}
    </div>
  );
}

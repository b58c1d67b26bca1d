'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Upload, X } from 'lucide-react';
import { memo, useRef, useState } from 'react';
import { useTRPC, useTRPCClient } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useModal } from '@/components/ui/use-modal';
import type { BotSchema } from '@/lib/schema';
import { exportFileName } from '@/lib/schema/export-file-name';

/**
 * Import and export of the bot schema JSON (the CLI's format). The server checks the file as it
 * checks every save (errors name the field, `blocks[0].kind: …`); into a bot that has blocks
 * the designer then chooses: replace them, or add the imported blocks beside them with new ids.
 * Either is an edit of the canvas, so Undo takes it back and autosave saves it. A file's
 * conversation tests are not the canvas's: they go to tests.importTests with a replace (added
 * beside, the blocks get new ids the tests do not know) and stay out of the canvas's saves.
 */
export const ImportExport = memo(function ImportExport({
  projectId,
  blockCount,
  onReplace,
  onAddBeside,
}: {
  projectId: number;
  /** Blocks in the bot now: with none, an import replaces it without asking. */
  blockCount: number;
  onReplace(schema: BotSchema): void;
  onAddBeside(schema: BotSchema): void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ name: string; schema: BotSchema } | null>(null);
  const importSchema = useMutation(trpc.botSchema.checkImport.mutationOptions());
  const importTests = useMutation(trpc.tests.importTests.mutationOptions());
  const queryClient = useQueryClient();
  const replace = ({ tests, ...schema }: BotSchema) => {
    onReplace(schema);
    if (tests?.length)
      importTests.mutate(
        { projectId, tests },
        { onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.tests.pathKey() }) },
      );
  };
  const exportSchema = useMutation({
    mutationFn: async () => {
      const [{ json }, project] = await Promise.all([
        client.botSchema.export.query({ projectId }),
        client.project.get.query({ projectId }),
      ]);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
      link.download = exportFileName(project.name, new Date());
      link.click();
      URL.revokeObjectURL(link.href);
    },
  });
  const error = importSchema.error ?? importTests.error ?? exportSchema.error;

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
          if (!file) return;
          importSchema.mutate(
            { projectId, json: await file.text() },
            {
              onSuccess: ({ schema }) => {
                if (blockCount) setPending({ name: file.name, schema });
                else replace(schema);
              },
            },
          );
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
                  importTests.reset();
                  exportSchema.reset();
                }}
              >
                <X className="size-4" aria-hidden />
              </button>
            </div>
          </Alert>
        </div>
      ) : null}
      {pending ? (
        <ImportChoice
          fileName={pending.name}
          blockCount={blockCount}
          importedCount={pending.schema.blocks.length}
          testCount={pending.schema.tests?.length ?? 0}
          onChoose={(choice) => {
            if (choice === 'replace') replace(pending.schema);
            if (choice === 'beside') {
              const { tests: _tests, ...schema } = pending.schema;
              onAddBeside(schema);
            }
            setPending(null);
          }}
        />
      ) : null}
    </div>
  );
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Asks what an import over existing blocks does: a modal dialog, Escape cancels. */
function ImportChoice({
  fileName,
  blockCount,
  importedCount,
  testCount,
  onChoose,
}: {
  fileName: string;
  blockCount: number;
  importedCount: number;
  /** The file's conversation tests. */
  testCount: number;
  onChoose(choice: 'replace' | 'beside' | 'cancel'): void;
}) {
  const { dialog, titleId } = useModal();
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onChoose('cancel');
      }}
      className="m-auto w-[30rem] max-w-[90vw] rounded-lg border border-slate-200 bg-white p-5 shadow-xl backdrop:bg-slate-900/30"
    >
      <h2 id={titleId} className="text-base font-semibold text-slate-900">
        Import {fileName}?
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        This bot has {plural(blockCount, 'block')}; the file has {plural(importedCount, 'block')}
        {testCount ? ` and ${plural(testCount, 'test')}` : ''}.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>
          <strong>Replace</strong> deletes the bot's blocks and arrows and puts the file's in their place
          (Undo brings them back){testCount ? "; the file's tests are imported too" : ''}.
        </li>
        <li>
          <strong>Add beside</strong> keeps the bot and adds the file's blocks to the right of it, with new
          ids{testCount ? ", without the file's tests (they name the old ids)" : ''}.
        </li>
      </ul>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="ghost" onClick={() => onChoose('cancel')}>
          Cancel
        </Button>
        <Button variant="secondary" onClick={() => onChoose('beside')}>
          Add beside
        </Button>
        <Button variant="danger" onClick={() => onChoose('replace')}>
          Replace
        </Button>
      </div>
    </dialog>
  );
}

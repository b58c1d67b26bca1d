'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, GitCompare, Undo2, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTRPC, useTRPCClient } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useModal } from '@/components/ui/use-modal';
import { type BotSchema, parseBotSchemaJson } from '@/lib/schema';
import type { VersionSide } from '@/lib/versions/bot-diff';
import type { DiffMarks } from './diff-marks';
import { VersionDiff } from './version-diff';

/**
 * The bot's published versions, newest first: who published each, when, and why. A version can
 * be exported, compared with another or the draft, and (owners and admins) published again as a
 * new version: a rollback, which leaves the draft as it is unless asked to put the version on the
 * canvas too (through the canvas's own edit and autosave: one undoable step).
 */
export function VersionHistory({
  projectId,
  canPublish,
  live,
  unpublishedChanges,
  onShowDiff,
  onRestoreDraft,
  onClose,
}: {
  projectId: number;
  canPublish: boolean;
  /** The version clients talk to. */
  live: number | null;
  /** The draft differs from the live version. */
  unpublishedChanges: boolean;
  onShowDiff(marks: DiffMarks): void;
  /** Puts a bot on the canvas as the draft (an undoable edit, saved as any other); false if it could not. */
  onRestoreDraft(schema: BotSchema): boolean;
  onClose(): void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const { dialog, titleId } = useModal();
  const versions = useQuery(trpc.versions.list.queryOptions({ projectId }));
  const [confirming, setConfirming] = useState<number | null>(null);
  const [restore, setRestore] = useState(false);
  const restoreId = useId();
  // The two sides compared; null shows the list.
  const [compare, setCompare] = useState<{ from: VersionSide; to: VersionSide } | null>(null);
  const rollback = useMutation({
    mutationFn: async ({ version, asDraft }: { version: number; asDraft: boolean }) => {
      await client.versions.rollback.mutate({ projectId, version, note: '' });
      if (!asDraft) return false;
      const parsed = parseBotSchemaJson((await client.versions.export.query({ projectId, version })).json);
      if (!parsed.ok || !onRestoreDraft(parsed.value))
        throw new Error(
          `Version ${version} was published again, but its bot could not be put on the canvas: export it and import it instead.`,
        );
      return true;
    },
    onSuccess: (restored) => {
      setConfirming(null);
      // The canvas now shows it as the draft: look at it there.
      if (restored) onClose();
    },
    // The list and the toolbar's state (which version is live) both change, even when the
    // version was published but could not be put on the canvas.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.versions.pathKey() }),
  });
  const exportVersion = useMutation({
    mutationFn: async (version: number) => {
      const { json } = await client.versions.export.query({ projectId, version });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
      link.download = `bot-version-${version}.json`;
      link.click();
      URL.revokeObjectURL(link.href);
    },
  });
  const error = rollback.error ?? exportVersion.error;
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={onClose}
      className="m-auto w-[46rem] max-w-[94vw] rounded-lg p-5 shadow-xl backdrop:bg-slate-900/30"
    >
      <div className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-2">
          <h2 id={titleId} className="flex-1 text-base font-semibold">
            {compare ? 'Compare versions' : 'Versions of the bot'}
          </h2>
          {!compare && live && unpublishedChanges ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setCompare({ from: live, to: 'draft' })}
              title={`What the draft changes from version ${live}, the one clients talk to`}
            >
              <GitCompare className="size-3.5" aria-hidden />
              Unpublished changes
            </Button>
          ) : null}
          <button type="button" aria-label="Close" onClick={onClose}>
            <X className="size-4" aria-hidden />
          </button>
        </div>
        {compare ? (
          <VersionDiff
            projectId={projectId}
            versions={versions.data?.map((v) => v.number) ?? []}
            draftVersion={live && !unpublishedChanges ? live : null}
            from={compare.from}
            to={compare.to}
            onPick={(from, to) => setCompare({ from, to })}
            onBack={() => setCompare(null)}
            onShowOnCanvas={(marks) =>
              // The unpublished changes go on meaning "the live version to the draft" after a publish.
              onShowDiff({
                ...marks,
                sides: {
                  from: compare.from,
                  to: compare.to,
                  followsLive: compare.from === live && compare.to === 'draft',
                },
              })
            }
          />
        ) : (
          renderList()
        )}
      </div>
    </dialog>
  );

  /** A render function, not a component: it would remount on every render of the dialog. */
  function renderList() {
    return (
      <>
        {error ? <Alert tone="error">{error.message}</Alert> : null}
        {versions.data && !versions.data.length ? (
          <p className="text-sm text-slate-600">
            Nothing is published yet. Publish the draft from the toolbar: clients on your channels talk to the
            published version, the simulator to the draft.
          </p>
        ) : null}
        <ol
          className="flex max-h-[60vh] flex-col divide-y divide-slate-200 overflow-auto"
          data-testid="versions"
        >
          {versions.data?.map((v) => (
            <li key={v.number} className="flex flex-wrap items-start gap-3 py-2" data-version={v.number}>
              <div className="min-w-0 flex-1">
                <div className="flex items-center gap-2 text-sm font-medium">
                  Version {v.number}
                  {v.number === live ? (
                    <span className="rounded bg-emerald-50 px-1.5 text-xs text-emerald-700">live</span>
                  ) : null}
                </div>
                <div className="text-xs text-slate-600">
                  {new Date(v.publishedAt).toLocaleString()}
                  {v.publishedBy ? ` · ${v.publishedBy}` : ''} · {v.blocks} blocks, {v.arrows} arrows
                  {v.restoredFrom ? ` · the bot of version ${v.restoredFrom}` : ''}
                  {v.testsRun ? ` · ${v.testsRun - v.testsFailed} of ${v.testsRun} tests passed` : ''}
                </div>
                {v.testsFailed ? (
                  <div className="text-xs text-red-700">
                    Published anyway with {v.testsFailed} failing {v.testsFailed === 1 ? 'test' : 'tests'}
                  </div>
                ) : null}
                {v.note ? <div className="mt-0.5 text-sm text-slate-800">{v.note}</div> : null}
              </div>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Changes in version ${v.number}`}
                title={
                  v.number === 1
                    ? 'What version 1 has: the first published bot'
                    : `What changed from version ${v.number - 1} to version ${v.number}`
                }
                onClick={() => setCompare({ from: v.number - 1, to: v.number })}
              >
                <GitCompare className="size-3.5" aria-hidden />
                Changes
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Export version ${v.number}`}
                onClick={() => exportVersion.mutate(v.number)}
              >
                <Download className="size-3.5" aria-hidden />
              </Button>
              {canPublish && v.number !== live && confirming !== v.number ? (
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => {
                    setRestore(false);
                    setConfirming(v.number);
                  }}
                >
                  <Undo2 className="size-3.5" aria-hidden />
                  Roll back to it
                </Button>
              ) : null}
              {canPublish && confirming === v.number ? (
                <fieldset
                  aria-label={`Roll back to version ${v.number}`}
                  className="flex basis-full flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm"
                >
                  <p className="text-slate-800">
                    Clients on every channel get the bot of version {v.number} again, published as a new
                    version. The draft on the canvas stays as it is
                    {unpublishedChanges ? ', with your unpublished changes' : ''}: publishing it later
                    replaces this rollback.
                  </p>
                  <div>
                    <label htmlFor={restoreId} className="flex items-center gap-2 text-slate-800">
                      <input
                        id={restoreId}
                        type="checkbox"
                        aria-describedby={`${restoreId}-note`}
                        checked={restore}
                        onChange={(e) => setRestore(e.target.checked)}
                      />
                      Also put it on the canvas as the draft
                    </label>
                    <p id={`${restoreId}-note`} className="ml-5 text-xs text-slate-600">
                      The draft is replaced by version {v.number}'s bot; Undo on the canvas brings it back.
                    </p>
                  </div>
                  <div className="flex justify-end gap-2">
                    <Button size="sm" variant="secondary" onClick={() => setConfirming(null)}>
                      Cancel
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={rollback.isPending}
                      onClick={() => rollback.mutate({ version: v.number, asDraft: restore })}
                    >
                      Publish it for every client
                    </Button>
                  </div>
                </fieldset>
              ) : null}
            </li>
          ))}
        </ol>
      </>
    );
  }
}

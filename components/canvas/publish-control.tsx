'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleDot, History, Rocket } from 'lucide-react';
import { useEffect, useState } from 'react';
import { FailingTests } from '@/components/tests/failing-tests';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { useModal } from '@/components/ui/use-modal';
import type { TestReport } from '@/lib/conversation-tests/results';
import type { BotSchema } from '@/lib/schema';
import type { DiffMarks } from './diff-marks';
import type { SaveState } from './use-autosave';
import { VersionHistory } from './version-history';

/**
 * Draft and published, in the toolbar (docs/versions.md): clients talk to the published version;
 * the canvas and the simulator show the draft. "Unpublished changes" until the draft is
 * published; owners and admins publish (with a note) or discard the draft, everyone sees the
 * history.
 */
export function PublishControl({
  projectId,
  saveState,
  heldBack,
  canPublish,
  onDraftReplaced,
  onShowDiff,
  onRestoreDraft,
}: {
  projectId: number;
  saveState: SaveState;
  /** Fields the editors hold back: the draft on the server is not what the canvas shows. */
  heldBack: number;
  canPublish: boolean;
  /** The draft changed on the server (discarded, or a rollback): the canvas loads it again. */
  onDraftReplaced(): void;
  /** Marks a comparison of versions on the canvas. */
  onShowDiff(marks: DiffMarks): void;
  /** Puts a version's bot on the canvas as the draft (a rollback's option): an undoable edit. */
  onRestoreDraft(schema: BotSchema): boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const stateQuery = useQuery(trpc.versions.state.queryOptions({ projectId }));
  const state = stateQuery.data;
  const [dialog, setDialog] = useState<'publish' | 'discard' | 'history' | null>(null);
  // Each save makes a new draft revision: read the state again once it is saved.
  useEffect(() => {
    if (saveState.status === 'saved') void stateQuery.refetch();
  }, [saveState.status, stateQuery.refetch]);
  // "The published version"'s analytics are another version's once one is published or rolled back.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.versions.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.analytics.pathKey() }),
    ]);

  const published = state?.published;
  const changed = state?.unpublishedChanges ?? false;
  const draftSaved = saveState.status === 'saved' && heldBack === 0;
  return (
    <div className="flex items-center gap-1.5">
      <span
        data-testid="publish-state"
        data-unpublished={changed ? 'true' : 'false'}
        title={
          published
            ? `${changed ? 'The draft has unpublished changes. ' : ''}Clients talk to version ${published.number}, published by ${published.publishedBy || 'someone'}.`
            : 'Nothing is published yet: clients on your channels get no answer.'
        }
        className={cn(
          'inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs',
          changed ? 'bg-amber-50 text-amber-800' : 'text-emerald-700',
        )}
      >
        <CircleDot className="size-3.5" aria-hidden />
        {/* Below 768 px the dot's colour says it; the words stay for screen readers and the tooltip. */}
        <span className="max-md:sr-only">
          {!state
            ? '…'
            : changed
              ? published
                ? `Unpublished changes · live: v${published.number}`
                : 'Not published yet'
              : `Published · v${published?.number}`}
        </span>
      </span>
      <Button size="sm" variant="ghost" onClick={() => setDialog('history')} aria-label="Version history">
        <History className="size-3.5" aria-hidden />
        <span className="max-md:sr-only">Versions</span>
      </Button>
      {canPublish ? (
        <Button
          size="sm"
          onClick={() => setDialog('publish')}
          disabled={!state || !changed || !draftSaved}
          title={
            !draftSaved
              ? 'Wait until the draft is saved.'
              : changed
                ? 'Publish the draft: clients on every channel get it.'
                : 'Nothing to publish: the draft is the published version.'
          }
        >
          <Rocket className="size-3.5" aria-hidden />
          Publish
        </Button>
      ) : null}
      {dialog === 'publish' && state ? (
        <PublishDialog
          projectId={projectId}
          draftRevision={state.draftRevision}
          canDiscard={!!published}
          onDiscard={() => setDialog('discard')}
          onClose={(done) => {
            setDialog(null);
            if (done) void refresh();
          }}
        />
      ) : null}
      {dialog === 'discard' && published ? (
        <DiscardDialog
          projectId={projectId}
          version={published.number}
          onClose={(done) => {
            setDialog(null);
            if (!done) return;
            void refresh();
            onDraftReplaced();
          }}
        />
      ) : null}
      {dialog === 'history' ? (
        <VersionHistory
          projectId={projectId}
          canPublish={canPublish}
          live={published?.number ?? null}
          unpublishedChanges={!!published && changed}
          onShowDiff={(marks) => {
            setDialog(null);
            onShowDiff(marks);
          }}
          onRestoreDraft={onRestoreDraft}
          onClose={() => {
            setDialog(null);
            void refresh();
          }}
        />
      ) : null}
    </div>
  );
}

function PublishDialog({
  projectId,
  draftRevision,
  canDiscard,
  onDiscard,
  onClose,
}: {
  projectId: number;
  draftRevision: number;
  canDiscard: boolean;
  onDiscard(): void;
  onClose(published: boolean): void;
}) {
  const trpc = useTRPC();
  const { dialog, titleId } = useModal();
  const [note, setNote] = useState('');
  // The conversation tests a publish ran and found failing: nothing was published.
  const [failing, setFailing] = useState<TestReport | null>(null);
  const publish = useMutation(
    trpc.versions.publish.mutationOptions({
      onSuccess: (result) => {
        if (result.version) onClose(true);
        else setFailing(result.tests);
      },
    }),
  );
  const anyway = failing !== null;
  const noteMissing = anyway && !note.trim();
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={() => onClose(false)}
      className="m-auto w-[30rem] max-w-[92vw] rounded-lg p-5 shadow-xl backdrop:bg-slate-900/30"
    >
      <form
        method="dialog"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (noteMissing) return;
          publish.mutate({
            projectId,
            note,
            expectedRevision: draftRevision,
            ...(anyway ? { publishAnyway: true } : {}),
          });
        }}
      >
        <h2 id={titleId} className="text-base font-semibold">
          Publish the draft
        </h2>
        {failing ? (
          <FailingTests report={failing} />
        ) : (
          <p className="text-sm text-slate-600">
            Clients on every channel, the API, timers and broadcasts get the bot as the canvas shows it now.
            Clients in the middle of a conversation go on from the block they are in. The bot's tests run
            first.
          </p>
        )}
        <label className="flex flex-col gap-1 text-sm">
          {anyway ? 'Why publish anyway (required)' : 'What changed (optional)'}
          <input
            className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
            value={note}
            maxLength={500}
            required={anyway}
            aria-invalid={noteMissing || undefined}
            onChange={(event) => setNote(event.target.value)}
            placeholder={
              anyway ? 'e.g. The prices changed; the test is updated next' : 'e.g. New delivery prices'
            }
          />
        </label>
        {publish.error ? (
          <Alert tone="error">
            <div className="max-h-48 overflow-auto whitespace-pre-wrap text-xs">{publish.error.message}</div>
          </Alert>
        ) : null}
        <div className="flex items-center gap-2">
          {canDiscard ? (
            <Button type="button" variant="ghost" size="sm" onClick={onDiscard}>
              Discard the draft…
            </Button>
          ) : null}
          <span className="flex-1" />
          <Button type="button" variant="secondary" size="sm" onClick={() => onClose(false)}>
            Cancel
          </Button>
          <Button
            type="submit"
            size="sm"
            variant={anyway ? 'danger' : 'primary'}
            disabled={publish.isPending || noteMissing}
            title={noteMissing ? 'Say why in the note first.' : undefined}
          >
            {publish.isPending ? 'Testing and publishing…' : anyway ? 'Publish anyway' : 'Publish'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

function DiscardDialog({
  projectId,
  version,
  onClose,
}: {
  projectId: number;
  version: number;
  onClose(discarded: boolean): void;
}) {
  const trpc = useTRPC();
  const { dialog, titleId } = useModal();
  const discard = useMutation(trpc.versions.discardDraft.mutationOptions({ onSuccess: () => onClose(true) }));
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={() => onClose(false)}
      className="m-auto w-[28rem] max-w-[92vw] rounded-lg p-5 shadow-xl backdrop:bg-slate-900/30"
    >
      <div className="flex flex-col gap-3">
        <h2 id={titleId} className="text-base font-semibold">
          Discard the draft?
        </h2>
        <p className="text-sm text-slate-600">
          The canvas goes back to version {version}, the one clients talk to. Every change made since it was
          published is lost; export the bot first to keep a copy.
        </p>
        {discard.error ? <Alert tone="error">{discard.error.message}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" size="sm" onClick={() => onClose(false)}>
            Keep the draft
          </Button>
          <Button
            variant="danger"
            size="sm"
            disabled={discard.isPending}
            onClick={() => discard.mutate({ projectId })}
          >
            Discard changes
          </Button>
        </div>
      </div>
    </dialog>
  );
}

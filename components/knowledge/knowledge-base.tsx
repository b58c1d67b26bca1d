'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { formatFileSize } from '@/lib/files/file-types';
import { ACCEPTED_FILES } from '@/lib/knowledge/file-kind';
import { indexingRefresh } from '@/lib/knowledge/indexing-status';
import {
  DEFAULT_CHUNK_SIZE,
  MAX_CHUNK_SIZE,
  MAX_DOCUMENT_BYTES,
  MIN_CHUNK_SIZE,
  megabytes,
} from '@/lib/knowledge/limits';

type Source = 'text' | 'markdown' | 'file' | 'url';

const STATUS_TONE = {
  indexing: 'bg-amber-100 text-amber-800',
  ready: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
} as const;

/** A file through the upload route (streamed against the cap, so not through tRPC). */
async function upload(projectId: number, file: File, title: string, chunkSize: number) {
  if (file.size > MAX_DOCUMENT_BYTES)
    throw new Error(`The file is larger than ${megabytes(MAX_DOCUMENT_BYTES)}; split it into parts.`);
  const query = new URLSearchParams({
    name: file.name,
    chunkSize: String(chunkSize),
    ...(title && { title }),
  });
  const response = await fetch(`/api/projects/${projectId}/knowledge/upload?${query}`, {
    method: 'POST',
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as { error?: string } | null;
  if (!response.ok) throw new Error(body?.error ?? `The upload failed (HTTP ${response.status}).`);
}

/**
 * The Knowledge tab (docs/knowledge-base.md): documents with their status, adding text, a file
 * or a page, each document's chunks (editable by owners and admins), and a test search showing
 * what the assistant would read for a question.
 */
export function KnowledgeBase({ projectId, manager }: { projectId: number; manager: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const documents = useQuery({
    ...trpc.knowledge.documents.queryOptions({ projectId }),
    // Indexing is a job: the list is read again until every document is ready or failed.
    refetchInterval: (query) => indexingRefresh(query.state.data),
  });
  const missing = useQuery(trpc.knowledge.missing.queryOptions({ projectId }));
  const [openId, setOpenId] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.knowledge.pathKey() });
  const reindex = useMutation(trpc.knowledge.reindex.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.knowledge.delete.mutationOptions({ onSettled: refresh }));
  const actionError = reindex.error?.message ?? remove.error?.message;

  return (
    <main className="mx-auto max-w-4xl space-y-6 p-6">
      {missing.data ? (
        <Alert>
          {missing.data.reason}{' '}
          <Link
            href={`/projects/${projectId}/settings${missing.data.setting === 'plan' ? '' : '/ai'}`}
            className="text-brand-700 underline"
          >
            {missing.data.setting === 'plan' ? 'Open Settings' : 'Open Settings, AI'}
          </Link>
        </Alert>
      ) : null}
      {manager ? <AddDocument projectId={projectId} onAdded={refresh} /> : null}
      <Card>
        <CardTitle description="What the AI assistant answers from. Only ready documents are searched.">
          Documents
        </CardTitle>
        {documents.error ? <Alert tone="error">{documents.error.message}</Alert> : null}
        {actionError ? <Alert tone="error">{actionError}</Alert> : null}
        {documents.data?.length === 0 ? <p className="text-sm text-slate-500">No documents yet.</p> : null}
        <ul className="divide-y divide-slate-200">
          {documents.data?.map((doc) => (
            <li key={doc.id} className="space-y-2 py-3">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{doc.title}</span>
                <Badge>{doc.sourceKind}</Badge>
                <Badge className={STATUS_TONE[doc.status]}>
                  {doc.status === 'indexing' ? 'indexing…' : doc.status}
                </Badge>
                <span className="text-xs text-slate-500">
                  {doc.chunkCount === 1 ? '1 chunk' : `${doc.chunkCount} chunks`} ·{' '}
                  {formatFileSize(doc.byteSize)}
                  {doc.sourceUrl ? ` · ${doc.sourceUrl}` : ''}
                </span>
                <span className="ml-auto flex gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => setOpenId(openId === doc.id ? null : doc.id)}
                  >
                    {openId === doc.id ? 'Hide chunks' : 'Chunks'}
                  </Button>
                  {manager ? (
                    <>
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={reindex.isPending || doc.status === 'indexing'}
                        onClick={() => reindex.mutate({ projectId, documentId: doc.id, full: false })}
                      >
                        Re-index
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        disabled={remove.isPending}
                        onClick={() => {
                          if (confirm(`Delete "${doc.title}" and its ${doc.chunkCount} chunks?`))
                            remove.mutate({ projectId, documentId: doc.id });
                        }}
                      >
                        Delete
                      </Button>
                    </>
                  ) : null}
                </span>
              </div>
              {doc.error ? <Alert tone="error">{doc.error}</Alert> : null}
              {openId === doc.id ? (
                <Chunks projectId={projectId} documentId={doc.id} manager={manager} />
              ) : null}
            </li>
          ))}
        </ul>
      </Card>
      <TestSearch projectId={projectId} />
    </main>
  );
}

function AddDocument({ projectId, onAdded }: { projectId: number; onAdded: () => unknown }) {
  const trpc = useTRPC();
  const [source, setSource] = useState<Source>('markdown');
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [chunkSize, setChunkSize] = useState(DEFAULT_CHUNK_SIZE);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const addText = useMutation(trpc.knowledge.addText.mutationOptions());
  const addUrl = useMutation(trpc.knowledge.addUrl.mutationOptions());

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    try {
      if (source === 'file') {
        if (!file) throw new Error('Choose a file.');
        await upload(projectId, file, title, chunkSize);
      } else if (source === 'url')
        await addUrl.mutateAsync({ projectId, url, title: title || undefined, chunkSize });
      else await addText.mutateAsync({ projectId, title, kind: source, text, chunkSize });
      setTitle('');
      setText('');
      setUrl('');
      setFile(null);
      await onAdded();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      await onAdded();
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <CardTitle
        description={`Text, Markdown, HTML or PDF up to ${megabytes(MAX_DOCUMENT_BYTES)}, or a web page.`}
      >
        Add a document
      </CardTitle>
      <form className="space-y-3" onSubmit={onSubmit}>
        <div className="grid gap-3 sm:grid-cols-3">
          <Field id="kb-source" label="Source">
            <Select id="kb-source" value={source} onChange={(e) => setSource(e.target.value as Source)}>
              <option value="markdown">Markdown (pasted)</option>
              <option value="text">Plain text (pasted)</option>
              <option value="file">File (PDF, Markdown, HTML, text)</option>
              <option value="url">Web page</option>
            </Select>
          </Field>
          <Field
            id="kb-title"
            label="Title"
            hint={source === 'text' || source === 'markdown' ? undefined : 'Optional'}
          >
            <Input id="kb-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
          </Field>
          <Field id="kb-chunk" label="Chunk size (characters)">
            <Input
              id="kb-chunk"
              type="number"
              min={MIN_CHUNK_SIZE}
              max={MAX_CHUNK_SIZE}
              value={chunkSize}
              onChange={(e) => setChunkSize(Number(e.target.value))}
            />
          </Field>
        </div>
        {source === 'file' ? (
          <Field id="kb-file" label="File">
            <input
              id="kb-file"
              type="file"
              accept={ACCEPTED_FILES}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Field>
        ) : source === 'url' ? (
          <Field id="kb-url" label="Address">
            <Input
              id="kb-url"
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://"
            />
          </Field>
        ) : (
          <Field id="kb-text" label="Text">
            <Textarea id="kb-text" rows={8} value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
        )}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <Button type="submit" disabled={pending}>
          {pending ? 'Indexing…' : 'Add'}
        </Button>
      </form>
    </Card>
  );
}

function Chunks({
  projectId,
  documentId,
  manager,
}: {
  projectId: number;
  documentId: number;
  manager: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const chunks = useQuery(trpc.knowledge.chunks.queryOptions({ projectId, documentId }));
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const save = useMutation(
    trpc.knowledge.editChunk.mutationOptions({
      onSuccess: () => setEditing(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.knowledge.pathKey() }),
    }),
  );
  if (chunks.error) return <Alert tone="error">{chunks.error.message}</Alert>;
  return (
    <ol className="space-y-2">
      {chunks.data?.chunks.map((chunk) => (
        <li key={chunk.id} className="rounded-md border border-slate-200 p-2 text-sm">
          <div className="mb-1 flex items-center gap-2 text-xs text-slate-500">
            <span>#{chunk.position + 1}</span>
            <span>{chunk.headingPath.join(' › ')}</span>
            {chunk.embedded ? null : <Badge className="bg-amber-100 text-amber-800">not embedded</Badge>}
            {manager && editing?.id !== chunk.id ? (
              <Button size="sm" variant="ghost" className="ml-auto" onClick={() => setEditing(chunk)}>
                Edit
              </Button>
            ) : null}
          </div>
          {editing?.id === chunk.id ? (
            <div className="space-y-2">
              <Textarea
                aria-label={`Chunk ${chunk.position + 1}`}
                rows={6}
                value={editing.text}
                onChange={(e) => setEditing({ id: chunk.id, text: e.target.value })}
              />
              {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
              <div className="flex gap-2">
                <Button
                  size="sm"
                  disabled={save.isPending}
                  onClick={() => save.mutate({ projectId, chunkId: chunk.id, text: editing.text })}
                >
                  Save
                </Button>
                <Button size="sm" variant="secondary" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : (
            <p className="whitespace-pre-wrap">{chunk.text}</p>
          )}
        </li>
      ))}
    </ol>
  );
}

function TestSearch({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const results = useQuery({
    ...trpc.knowledge.testSearch.queryOptions({ projectId, query, limit: 5 }),
    enabled: query.length > 0,
  });
  return (
    <Card>
      <CardTitle description="The chunks the assistant would read for a question, best first.">
        Test search
      </CardTitle>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(draft.trim());
        }}
      >
        <Input
          aria-label="Question"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="A client's question"
        />
        <Button type="submit">Search</Button>
      </form>
      {results.error ? <Alert tone="error">{results.error.message}</Alert> : null}
      {results.data?.length === 0 ? <p className="text-sm text-slate-500">Nothing found.</p> : null}
      <ol className="mt-3 space-y-2">
        {results.data?.map((hit) => (
          <li key={hit.chunkId} className="rounded-md border border-slate-200 p-2 text-sm">
            <div className="mb-1 flex gap-2 text-xs text-slate-500">
              <span className="font-medium text-slate-700">{hit.title}</span>
              <span>{hit.headingPath.join(' › ')}</span>
              <span className="ml-auto">score {hit.score.toFixed(4)}</span>
            </div>
            <p className="whitespace-pre-wrap">{hit.text}</p>
          </li>
        ))}
      </ol>
    </Card>
  );
}

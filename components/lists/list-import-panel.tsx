'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, rowErrorText } from '@/lib/lists/list-csv';
import type { ImportReport } from '@/server/contacts/list-import';

const n = (x: number) => x.toLocaleString();
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

async function send(projectId: number, listId: number, file: File, commit: boolean, channelId: string) {
  const query = new URLSearchParams({
    ...(commit ? { commit: '1' } : {}),
    ...(channelId ? { channel: channelId } : {}),
  }).toString();
  const response = await fetch(
    `/api/projects/${projectId}/lists/${listId}/import${query ? `?${query}` : ''}`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'text/csv' },
      body: file,
    },
  );
  const body = (await response.json().catch(() => null)) as (ImportReport & { error?: string }) | null;
  if (!response.ok || !body) throw new Error(body?.error ?? `The import failed (HTTP ${response.status}).`);
  return body;
}

/**
 * A CSV of members for one list: the file is checked on the server and previewed (mapping,
 * counts, first rows, an error per row); nothing is written until "Import", and not at all
 * while a row is in error. With a phone channel chosen under "People not found", the numbers no
 * client has become that channel's new clients (docs/lists.md).
 */
export function ListImportPanel({
  projectId,
  list,
  onClose,
  onImported,
}: {
  projectId: number;
  list: { id: number; name: string };
  onClose(): void;
  onImported(added: number, created: number): Promise<unknown>;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [channelId, setChannelId] = useState('');
  const trpc = useTRPC();
  const channels = useQuery(trpc.lists.importChannels.queryOptions({ projectId }));

  const preview = async (chosen: File, channel = channelId) => {
    setFile(chosen);
    setReport(null);
    setError(null);
    if (chosen.size > MAX_IMPORT_BYTES) {
      setError(
        `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it and import each part.`,
      );
      return;
    }
    setBusy(true);
    try {
      setReport(await send(projectId, list.id, chosen, false, channel));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const commit = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const done = await send(projectId, list.id, file, true, channelId);
      await onImported(done.added ?? 0, done.created ?? 0);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const columns = report?.columns.filter((c) => c.use !== 'ignored').map((c) => c.use) ?? [];
  // A new client's name and e-mail are shown, not matched on.
  const keyColumns = columns.filter((c) => c !== 'name' && c !== 'email');
  const newMembers = report ? report.clients - report.alreadyMembers + report.newClients : 0;
  const phoneChannels = channels.data ?? [];

  return (
    <section
      aria-label={`Import members into ${list.name}`}
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
    >
      <div className="space-y-1">
        <label htmlFor={`import-${list.id}`} className="block font-medium text-slate-800">
          CSV file (UTF-8)
        </label>
        <p className="text-slate-500">
          A header row naming <code className="font-mono">client_id</code>, or{' '}
          <code className="font-mono">platform_id</code> and <code className="font-mono">client_type</code>{' '}
          (and <code className="font-mono">group_id</code> when the messenger has several bots), or{' '}
          <code className="font-mono">phone</code>; one client per row, at most {n(MAX_IMPORT_ROWS)} rows.
        </p>
        <input
          id={`import-${list.id}`}
          type="file"
          accept=".csv,text/csv,text/plain"
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-2.5 file:py-1 file:text-sm"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            // Emptied, so that choosing the same file again (once fixed) reads it again.
            e.target.value = '';
            if (chosen) void preview(chosen);
          }}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={`import-channel-${list.id}`} className="block font-medium text-slate-800">
          People not in the project yet
        </label>
        <div className="max-w-md">
          <Select
            id={`import-channel-${list.id}`}
            value={channelId}
            disabled={busy}
            onChange={(e) => {
              setChannelId(e.target.value);
              if (file) void preview(file, e.target.value);
            }}
          >
            <option value="">Refuse them: add existing clients only</option>
            {phoneChannels.map((c) => (
              <option key={c.id} value={c.id}>
                Create them in {c.label}: {c.name || c.groupId || `channel ${c.id}`}
              </option>
            ))}
          </Select>
        </div>
        <p className="text-slate-500">
          {phoneChannels.length ? (
            <>
              New clients are made from the <code className="font-mono">phone</code> column (with its country
              code), named by a <code className="font-mono">name</code> column and with the{' '}
              <code className="font-mono">email</code> column's address; a number a client already has adds
              that client.
            </>
          ) : (
            'To add people the project has never met, connect a chat-app number or a telephony line (Channels tab): new clients are created for it from the file’s phone numbers.'
          )}
        </p>
      </div>
      {file ? (
        <p className="text-slate-500">
          {busy ? 'Checking' : 'Checked'} <span className="font-medium text-slate-700">{file.name}</span>
          {busy ? '…' : '.'}
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {report ? (
        <div className="space-y-3">
          <p data-testid="import-summary" className="text-slate-700">
            {plural(report.rows, 'row')}, matched by {keyColumns.join(' + ')}:{' '}
            {plural(report.clients, 'client')} found
            {report.alreadyMembers ? ` (${n(report.alreadyMembers)} already in the list)` : ''}
            {report.channel
              ? `, ${plural(report.newClients, 'new client')} to create in ${report.channel.label} “${report.channel.name || report.channel.groupId}”`
              : ''}
            {report.duplicates ? `, ${plural(report.duplicates, 'duplicate row')} counted once` : ''}
            {report.errorCount || report.channel ? `, ${plural(report.errorCount, 'row')} refused` : ''}.
          </p>
          {report.columns.some((c) => c.use === 'ignored') ? (
            <p className="text-slate-500">
              Ignored columns:{' '}
              {report.columns
                .filter((c) => c.use === 'ignored')
                .map((c) => c.name || '(no name)')
                .join(', ')}
              .
            </p>
          ) : null}
          <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">First rows of the file</caption>
              <thead className="bg-slate-50 text-xs text-slate-500 uppercase">
                <tr>
                  <th className="px-3 py-1.5 font-medium">Row</th>
                  {columns.map((c) => (
                    <th key={c} className="px-3 py-1.5 font-medium">
                      {c}
                    </th>
                  ))}
                  <th className="px-3 py-1.5 font-medium">Client</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {report.preview.map((r) => (
                  <tr key={r.row} className={r.error ? 'bg-red-50' : undefined}>
                    <td className="px-3 py-1.5 text-slate-500">{r.row}</td>
                    {columns.map((c) => (
                      <td key={c} className="max-w-48 truncate px-3 py-1.5 font-mono text-xs">
                        {r.cells[c as keyof typeof r.cells] ?? ''}
                      </td>
                    ))}
                    <td className="px-3 py-1.5">
                      {r.error ? (
                        <span className="text-red-700">{r.error}</span>
                      ) : r.isNew ? (
                        <span className="font-medium text-emerald-700">new</span>
                      ) : (
                        `#${r.clientId}`
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {report.errors.length ? (
            <Alert tone="error">
              <p className="font-medium">
                {plural(report.errorCount, 'row')} refused: fix the file and choose it again. Nothing is
                imported while a row is refused.
              </p>
              <ul className="mt-1 max-h-48 list-disc overflow-y-auto pl-5" aria-label="Row errors">
                {report.errors.map((e) => (
                  <li key={`${e.row}-${e.column}`}>{rowErrorText(e)}</li>
                ))}
              </ul>
              {report.errorCount > report.errors.length ? (
                <p>…and {n(report.errorCount - report.errors.length)} more.</p>
              ) : null}
            </Alert>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button
          disabled={!report || report.errorCount > 0 || report.rows === 0 || busy}
          onClick={() => void commit()}
        >
          {report && !report.errorCount ? `Import ${plural(newMembers, 'new member')}` : 'Import'}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

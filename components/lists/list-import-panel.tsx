'use client';

import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, rowErrorText } from '@/lib/lists/list-csv';
import type { ImportReport } from '@/server/contacts/list-import';

const n = (x: number) => x.toLocaleString();

async function send(projectId: number, listId: number, file: File, commit: boolean) {
  const response = await fetch(
    `/api/projects/${projectId}/lists/${listId}/import${commit ? '?commit=1' : ''}`,
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
 * while a row is in error.
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
  onImported(added: number): Promise<unknown>;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const preview = async (chosen: File) => {
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
      setReport(await send(projectId, list.id, chosen, false));
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
      const done = await send(projectId, list.id, file, true);
      await onImported(done.added ?? 0);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const columns = report?.columns.filter((c) => c.use !== 'ignored').map((c) => c.use) ?? [];
  const newClients = report ? report.clients - report.alreadyMembers : 0;

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
            {n(report.rows)} rows, matched by {columns.join(' + ')}: {n(report.clients)} client
            {report.clients === 1 ? '' : 's'} found
            {report.alreadyMembers ? ` (${n(report.alreadyMembers)} already in the list)` : ''}
            {report.duplicates
              ? `, ${n(report.duplicates)} duplicate row${report.duplicates === 1 ? '' : 's'} counted once`
              : ''}
            {report.errorCount
              ? `, ${n(report.errorCount)} row${report.errorCount === 1 ? '' : 's'} in error`
              : ''}
            .
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
                      {r.error ? <span className="text-red-700">{r.error}</span> : `#${r.clientId}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {report.errors.length ? (
            <Alert tone="error">
              <p className="font-medium">
                {n(report.errorCount)} row{report.errorCount === 1 ? '' : 's'} in error: fix the file and
                choose it again. Nothing is imported while a row is in error.
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
          {report && !report.errorCount
            ? `Import ${n(newClients)} new member${newClients === 1 ? '' : 's'}`
            : 'Import'}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

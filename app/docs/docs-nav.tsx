import Link from 'next/link';
import { DOC_SECTIONS, docHref } from '@/lib/docs/doc-index';

/** The docs' top bar: the app, the docs' home, the user guide's pages, and the developers' apart. */
export function DocsNav({ current }: { current?: string }) {
  const guide = DOC_SECTIONS.filter((s) => !s.developers).flatMap((s) => s.entries);
  const internals = DOC_SECTIONS.filter((s) => s.developers).flatMap((s) => s.entries);
  const link = (doc: string, label: string) => (
    <Link
      key={doc}
      href={docHref(doc)}
      aria-current={doc === current ? 'page' : undefined}
      className="text-slate-600 hover:text-slate-900 aria-[current=page]:font-medium aria-[current=page]:text-slate-900"
    >
      {label}
    </Link>
  );
  return (
    <nav
      aria-label="Documentation"
      className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-slate-200 px-6 py-3 text-sm"
    >
      <Link href="/projects" className="font-semibold">
        Blockbot
      </Link>
      {link('/docs', 'Docs home')}
      {guide.map((e) => link(e.doc, e.label))}
      <span className="text-slate-400" aria-hidden>
        ·
      </span>
      <span className="text-xs uppercase tracking-wide text-slate-400">Developers</span>
      {internals.map((e) => link(e.doc, e.label))}
    </nav>
  );
}

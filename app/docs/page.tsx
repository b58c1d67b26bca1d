import type { Metadata } from 'next';
import Link from 'next/link';
import { DOC_SECTIONS, docHref, docTitle } from '@/lib/docs/doc-index';
import { readDoc } from '@/server/docs/doc-files';
import { DocsNav } from './docs-nav';

export const metadata: Metadata = { title: 'Blockbot documentation' };

/** The docs' home: the user guide by what a reader wants to do, the developers' internals apart. */
export default function DocsHome() {
  const title = (doc: string, label: string) =>
    doc.startsWith('/') ? label : (docTitle(readDoc(doc) ?? '') ?? label);
  return (
    <div className="min-h-full bg-white">
      <DocsNav current="/docs" />
      <main className="mx-auto max-w-3xl space-y-8 px-6 py-8">
        <header className="space-y-2">
          <h1 className="text-3xl font-bold text-slate-900">Blockbot documentation</h1>
          <p className="text-slate-600">
            Draw a bot on the canvas, try it in the simulator, put it on your website and messengers, and
            answer clients with your team. New here? Start with{' '}
            <Link href="/docs/getting-started" className="text-brand-600 underline">
              Getting started
            </Link>
            .
          </p>
        </header>
        {DOC_SECTIONS.map((section, i) => (
          <section
            key={section.title}
            aria-labelledby={`docs-section-${i}`}
            className={section.developers ? 'rounded-lg border border-slate-200 bg-slate-50 p-4' : undefined}
          >
            <h2 id={`docs-section-${i}`} className="mb-3 text-lg font-semibold text-slate-900">
              {section.title}
            </h2>
            {section.developers ? (
              <p className="mb-3 text-sm text-slate-600">
                How Blockbot is built, for those who change or extend it. Not needed to build bots.
              </p>
            ) : null}
            <ul className="space-y-2">
              {section.entries.map((entry) => (
                <li key={entry.doc}>
                  <Link href={docHref(entry.doc)} className="font-medium text-brand-600 underline">
                    {title(entry.doc, entry.label)}
                  </Link>
                  <p className="text-sm text-slate-600">{entry.about}</p>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </main>
    </div>
  );
}

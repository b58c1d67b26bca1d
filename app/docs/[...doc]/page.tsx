import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { docTitle } from '@/lib/docs/doc-index';
import { renderDoc } from '@/lib/docs/render-doc';
import { listDocs, readDoc } from '@/server/docs/doc-files';
import { DocsNav } from '../docs-nav';

type Params = { params: Promise<{ doc: string[] }> };

// The repository's docs/ are read at build time: every page is static.
export const dynamicParams = false;
export const generateStaticParams = () => listDocs().map((doc) => ({ doc: doc.split('/') }));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const doc = (await params).doc.join('/');
  const title = docTitle(readDoc(doc) ?? '');
  return { title: title ?? doc };
}

const prose = [
  'max-w-3xl text-[15px] leading-relaxed text-slate-800',
  '[&_h1]:mb-4 [&_h1]:text-3xl [&_h1]:font-bold',
  '[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:border-b [&_h2]:border-slate-200 [&_h2]:pb-1 [&_h2]:text-2xl [&_h2]:font-semibold',
  '[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:font-semibold',
  '[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1',
  '[&_a]:text-brand-600 [&_a]:underline',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[13px]',
  '[&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_table]:my-4 [&_table]:block [&_table]:overflow-x-auto [&_table]:text-sm',
  '[&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left',
  '[&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_td]:align-top',
].join(' ');

/** A doc of the repository's docs/ in the app (the builder's Help links here), its links kept in the app. */
export default async function DocPage({ params }: Params) {
  const doc = (await params).doc.join('/');
  const markdown = readDoc(doc);
  if (markdown === null) notFound();
  return (
    <div className="min-h-full bg-white">
      <DocsNav current={doc} />
      <article
        className={`${prose} mx-auto px-6 py-8`}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the repository's own Markdown, rendered at build time, not user content
        dangerouslySetInnerHTML={{ __html: renderDoc(markdown, doc) }}
      />
    </div>
  );
}

import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="text-2xl font-semibold">This page does not exist</h1>
      <p className="text-slate-600">
        The address may be mistyped, or the project was deleted or is not shared with you.
      </p>
      <Link href="/projects" className="text-brand-600 hover:underline">
        Go to your projects
      </Link>
    </main>
  );
}

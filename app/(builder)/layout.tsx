import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { requireSession } from '@/server/auth/require-session';
import { getDb } from '@/server/db';
import { isInstanceAdmin } from '@/server/instance/admin';

export default async function BuilderLayout({ children }: { children: ReactNode }) {
  const session = await requireSession();
  const admin = await isInstanceAdmin(await getDb(), session.user.id);
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-12 shrink-0 items-center justify-between gap-3 border-b border-slate-200 bg-white px-4">
        <Link href="/projects" className="flex shrink-0 items-center gap-2 font-semibold">
          {/* biome-ignore lint/performance/noImgElement: a tiny static icon */}
          <img src="/icon.svg" alt="" className="size-6" /> Blockbot
        </Link>
        <div className="flex min-w-0 items-center gap-3 text-sm text-slate-600">
          {/* On a phone the address would crowd out the name and the button: the button is enough. */}
          <span data-testid="user-email" className="hidden truncate sm:inline">
            {session.user.email}
          </span>
          {admin ? (
            <Link href="/instance" className="shrink-0 rounded-md px-2 py-1 hover:bg-slate-200/70">
              Instance
            </Link>
          ) : null}
          <SignOutButton />
        </div>
      </header>
      <div className="min-h-0 flex-1">{children}</div>
    </div>
  );
}

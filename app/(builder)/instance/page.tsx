import Link from 'next/link';
import { InstanceProjects } from '@/components/instance/instance-projects';
import { InstanceUsers } from '@/components/instance/instance-users';
import { SignUpSetting } from '@/components/instance/sign-up-setting';
import { requireSession } from '@/server/auth/require-session';
import { pageCaller } from '@/server/trpc/page-caller';

export const metadata = { title: 'Instance' };
export const dynamic = 'force-dynamic';

/** The instance's admins' page: who may sign up, the accounts and the projects (docs/operations.md). */
export default async function InstancePage() {
  const session = await requireSession();
  const { admin } = await (await pageCaller()).instance.viewer();
  if (!admin)
    return (
      <main className="mx-auto max-w-xl space-y-3 p-6 text-center">
        <h1 className="text-2xl font-semibold">Instance</h1>
        <p className="text-slate-600">Only this instance's admins can open this page.</p>
        <Link href="/projects" className="text-brand-600 hover:underline">
          Go to your projects
        </Link>
      </main>
    );
  return (
    <main className="mx-auto max-w-5xl space-y-6 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold">Instance</h1>
      <SignUpSetting />
      <InstanceUsers viewerId={session.user.id} />
      <InstanceProjects />
    </main>
  );
}

import type { ReactNode } from 'react';
import { SectionNav } from '@/components/projects/section-nav';

/** The Settings tab's pages (owners and admins: the tab and every procedure behind it are theirs). */
export default async function SettingsLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectId: string }>;
}) {
  const base = `/projects/${(await params).projectId}/settings`;
  return (
    <div className="flex h-full min-h-0 flex-col">
      <SectionNav
        label="Settings pages"
        manager
        pages={[
          { href: base, label: 'General' },
          { href: `${base}/webhooks`, label: 'Webhook log' },
          { href: `${base}/ai`, label: 'AI' },
        ]}
      />
      <div className="min-h-0 flex-1 overflow-auto">{children}</div>
    </div>
  );
}

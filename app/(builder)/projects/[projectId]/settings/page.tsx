import { ProjectSettings } from '@/components/projects/project-settings';

export const metadata = { title: 'Settings' };

export default async function SettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <ProjectSettings projectId={Number((await params).projectId)} />;
}

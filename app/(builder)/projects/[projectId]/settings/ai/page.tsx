import { AiSettings } from '@/components/ai/ai-settings';

export const metadata = { title: 'AI' };

export default async function AiSettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <AiSettings projectId={Number((await params).projectId)} />;
}

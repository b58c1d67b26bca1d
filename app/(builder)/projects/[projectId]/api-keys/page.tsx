import { ApiKeys } from '@/components/projects/api-keys';

export const metadata = { title: 'API keys' };

export default async function ApiKeysPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <ApiKeys projectId={Number((await params).projectId)} />;
}

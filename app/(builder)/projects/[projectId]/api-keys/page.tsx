import { ApiKeys } from '@/components/projects/api-keys';
import { baseUrl } from '@/server/config/env';

export const metadata = { title: 'API keys' };

export default async function ApiKeysPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <ApiKeys projectId={Number((await params).projectId)} baseUrl={baseUrl()} />;
}

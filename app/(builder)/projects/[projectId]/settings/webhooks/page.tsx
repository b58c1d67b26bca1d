import { WebhookLog } from '@/components/webhooks/webhook-log';

export const metadata = { title: 'Webhook log' };

export default async function WebhookLogPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <WebhookLog projectId={Number((await params).projectId)} />;
}

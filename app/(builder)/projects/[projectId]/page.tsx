import { BotCanvas } from '@/components/canvas/bot-canvas';

export const metadata = { title: 'Bot' };

export default async function ProjectCanvasPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <BotCanvas projectId={Number((await params).projectId)} />;
}

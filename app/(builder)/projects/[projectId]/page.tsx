import { BotCanvas } from '@/components/canvas/bot-canvas';

export const metadata = { title: 'Bot' };

/** `?block=<id>` opens the canvas on that block (links from a client's profile). */
export default async function ProjectCanvasPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<{ block?: string | string[] }>;
}) {
  const block = Number((await searchParams).block);
  return (
    <BotCanvas
      projectId={Number((await params).projectId)}
      openOnBlock={Number.isSafeInteger(block) && block > 0 ? block : null}
    />
  );
}

import { BotCanvas, type StreamedBot } from '@/components/canvas/bot-canvas';
import { pageCaller } from '@/server/trpc/page-caller';

export const metadata = { title: 'Bot' };

/**
 * The bot and the user's role, read while the page renders and streamed to the browser with it:
 * a big bot is then on its way before the page's scripts have run. Null when that fails; the
 * canvas then asks through tRPC and shows the error.
 */
async function streamBot(projectId: number): Promise<StreamedBot | null> {
  try {
    const caller = await pageCaller();
    const [bot, project] = await Promise.all([
      caller.botSchema.get({ projectId }),
      caller.project.get({ projectId }),
    ]);
    return { bot, role: project.role };
  } catch {
    return null;
  }
}

/** `?block=<id>` opens the canvas on that block (links from a client's profile). */
export default async function ProjectCanvasPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<{ block?: string | string[] }>;
}) {
  const projectId = Number((await params).projectId);
  const block = Number((await searchParams).block);
  return (
    <BotCanvas
      projectId={projectId}
      streamed={streamBot(projectId)}
      openOnBlock={Number.isSafeInteger(block) && block > 0 ? block : null}
    />
  );
}

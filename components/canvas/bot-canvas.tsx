'use client';

import { useQuery } from '@tanstack/react-query';
import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useState } from 'react';
import { SimulatorPanel } from '@/components/simulator/simulator-panel';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { canManageProject } from '@/lib/team/member-rules';
import { BotEditor } from './bot-editor';
import { SimulatorSlot } from './simulator-slot';
import { isWideScreen } from './wide-screen';

/**
 * The bot's canvas page: loads the schema once, then the editor owns it (autosave keeps the
 * server in step). Reloading (after a conflict or an import) fetches it again and remounts the
 * editor. The simulator sits in its slot on the right.
 */
export function BotCanvas({
  projectId,
  openOnBlock = null,
}: {
  projectId: number;
  openOnBlock?: number | null;
}) {
  const trpc = useTRPC();
  const schema = useQuery({
    ...trpc.botSchema.get.queryOptions({ projectId }),
    // The editor owns the schema once loaded: never refetch under it, always fetch on mount.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  // Operators see the bot read-only; the server refuses their saves as well.
  const project = useQuery(trpc.project.get.queryOptions({ projectId }));
  const [generation, setGeneration] = useState(0);
  const [currentBlock, setCurrentBlock] = useState<number | null>(null);
  // Open beside the canvas, except on a phone, where it would leave the canvas no room.
  const [simulatorOpen, setSimulatorOpen] = useState(isWideScreen);
  const { refetch } = schema;
  const reload = useCallback(async () => {
    await refetch();
    setGeneration((g) => g + 1);
  }, [refetch]);
  const reloadNow = useCallback(() => void reload(), [reload]);

  if (schema.error)
    return (
      <div className="p-6">
        <Alert tone="error">{schema.error.message}</Alert>
      </div>
    );
  if (!schema.data || !project.data) return <p className="p-6 text-sm text-slate-500">Loading the bot…</p>;
  return (
    <div className="flex h-full w-full">
      <ReactFlowProvider key={generation}>
        <BotEditor
          projectId={projectId}
          initial={schema.data}
          onReload={reloadNow}
          currentBlock={simulatorOpen ? currentBlock : null}
          openOnBlock={openOnBlock}
          readOnly={!canManageProject(project.data.role)}
        />
      </ReactFlowProvider>
      <SimulatorSlot open={simulatorOpen} onOpenChange={setSimulatorOpen}>
        <SimulatorPanel projectId={projectId} onCurrentBlock={setCurrentBlock} />
      </SimulatorSlot>
    </div>
  );
}

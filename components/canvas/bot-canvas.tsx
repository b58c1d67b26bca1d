'use client';

import { useQuery } from '@tanstack/react-query';
import { ReactFlowProvider } from '@xyflow/react';
import { useCallback, useEffect, useState } from 'react';
import { SimulatorPanel } from '@/components/simulator/simulator-panel';
import { TestsPanel } from '@/components/tests/tests-panel';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import type { Coverage } from '@/lib/conversation-tests/results';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { canManageProject, type MemberRole } from '@/lib/team/member-rules';
import { BotEditor } from './bot-editor';
import { usePanelLayout } from './side-panel';
import { SimulatorSlot, type SlotPanel } from './simulator-slot';
import type { EditorInitial } from './use-bot-schema-editor';
import { isWideScreen } from './wide-screen';

/** What the canvas page streams: the bot (botSchema.get) and the user's role in the project. */
export interface StreamedBot {
  bot: EditorInitial;
  role: MemberRole;
}

const shownStreams = new WeakSet<Promise<StreamedBot | null>>();

/**
 * The bot's canvas page: the bot comes streamed with the page, then the editor owns it (autosave
 * keeps the server in step). Reloading (after a conflict or an import) fetches it again and
 * remounts the editor. The simulator sits in its slot on the right.
 */
export function BotCanvas({
  projectId,
  streamed,
  openOnBlock = null,
}: {
  projectId: number;
  /** Null when the page could not load it: then it is fetched here, and its error shown. */
  streamed: Promise<StreamedBot | null>;
  openOnBlock?: number | null;
}) {
  const trpc = useTRPC();
  // Undefined until the page's stream has brought it. A stream already shown once (the page
  // restored from the router's cache by Back) may be out of date: the bot is fetched instead.
  const [fresh] = useState(() => !shownStreams.has(streamed));
  const [first, setFirst] = useState<StreamedBot | null>();
  useEffect(() => {
    let current = true;
    shownStreams.add(streamed);
    if (fresh) void streamed.then((bot) => current && setFirst(bot));
    else setFirst(null);
    return () => {
      current = false;
    };
  }, [streamed, fresh]);
  const schema = useQuery({
    ...trpc.botSchema.get.queryOptions({ projectId }),
    // Fetched when the page could not stream it, and on reload (refetch).
    enabled: first === null,
    // The editor owns the schema once loaded: never refetch under it.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  // Operators see the bot read-only; the server refuses their saves as well.
  const project = useQuery({ ...trpc.project.get.queryOptions({ projectId }), enabled: first === null });
  const [generation, setGeneration] = useState(0);
  // A block the simulator asks the canvas to show; a new object each time, so asking again works.
  const [shownBlock, setShownBlock] = useState<{ id: number } | null>(null);
  const showBlock = useCallback((id: number) => setShownBlock({ id }), []);
  // The block a conversation left earlier is outlined but not followed: the canvas opens where
  // a `?block=` link or the opening view says. A block the conversation reaches later is followed.
  const [current, setCurrent] = useState<{ id: number | null; follow: boolean } | null>(null);
  const onCurrentBlock = useCallback(
    (id: number | null) => setCurrent((before) => ({ id, follow: before !== null })),
    [],
  );
  // Open beside the canvas unless hidden there before (remembered in this browser); on a phone,
  // where it lies over the canvas, it starts hidden.
  const simulatorLayout = usePanelLayout('testChat');
  const { setCollapsed: setSimulatorCollapsed } = simulatorLayout;
  const [wide] = useState(isWideScreen);
  const [openOnPhone, setOpenOnPhone] = useState(false);
  const slotOpen = wide ? !simulatorLayout.collapsed : openOnPhone;
  // The slot shows the simulator or the Tests panel (not remembered: the simulator first).
  const [slotPanel, setSlotPanel] = useState<SlotPanel>('chat');
  const showPanel = useCallback(
    (panel: SlotPanel | null) => {
      if (panel) setSlotPanel(panel);
      if (wide) setSimulatorCollapsed(!panel);
      else setOpenOnPhone(!!panel);
    },
    [wide, setSimulatorCollapsed],
  );
  const simulatorOpen = slotOpen && slotPanel === 'chat';
  // A test recorded from the simulator opens in the Tests panel's form.
  const [openedTest, setOpenedTest] = useState<{ test: ConversationTest } | null>(null);
  const onTestRecorded = useCallback(
    (test: ConversationTest) => {
      setOpenedTest({ test });
      showPanel('tests');
    },
    [showPanel],
  );
  // The last run's coverage, drawn on the canvas while the Tests panel asks.
  const [coverage, setCoverage] = useState<{ coverage: Coverage; version: number } | null>(null);
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
  const bot = generation === 0 && first ? first.bot : schema.data;
  const role = first?.role ?? project.data?.role;
  if (!bot || !role) return <p className="p-6 text-sm text-slate-500">Loading the bot…</p>;
  return (
    <div className="relative flex h-full w-full">
      <ReactFlowProvider key={generation}>
        <BotEditor
          projectId={projectId}
          initial={bot}
          onReload={reloadNow}
          currentBlock={simulatorOpen ? (current?.id ?? null) : null}
          followCurrentBlock={current?.follow ?? false}
          showBlock={shownBlock}
          openOnBlock={openOnBlock}
          readOnly={!canManageProject(role)}
          coverage={coverage}
        />
      </ReactFlowProvider>
      <SimulatorSlot
        open={slotOpen}
        panel={slotPanel}
        onShow={showPanel}
        width={simulatorLayout.width}
        onResize={simulatorLayout.resize}
        chat={
          <SimulatorPanel
            projectId={projectId}
            onCurrentBlock={onCurrentBlock}
            onShowBlock={showBlock}
            onTestRecorded={canManageProject(role) ? onTestRecorded : undefined}
          />
        }
        tests={
          <TestsPanel
            projectId={projectId}
            canEdit={canManageProject(role)}
            opened={openedTest}
            onShowBlock={showBlock}
            onCoverage={setCoverage}
          />
        }
      />
    </div>
  );
}

'use client';

import { type ReactFlowState, useNodesInitialized, useStore } from '@xyflow/react';
import { useEffect, useRef } from 'react';

const hasViewport = (s: ReactFlowState) => s.panZoom !== null;

/**
 * Opens the canvas on one block (the `?block=<id>` of a link, such as a client's current block
 * on the client profile): the block is centred and selected, once. A canvas that opens fitted
 * (`opensFitted`) waits until React Flow has measured the nodes and made that fit; one that
 * opens on that block (a big bot, see openingView) need not, and cannot: its blocks off screen
 * are never measured. An id the bot no longer has leaves the opening view.
 */
export function useOpenOnBlock(
  blockId: number | null,
  jumpTo: (blockId: number) => void,
  opensFitted: boolean,
) {
  const nodesReady = useNodesInitialized();
  const viewportReady = useStore(hasViewport);
  const ready = opensFitted ? nodesReady : viewportReady;
  const done = useRef(false);
  useEffect(() => {
    if (blockId === null || done.current || !ready) return;
    done.current = true;
    requestAnimationFrame(() => jumpTo(blockId));
  }, [blockId, ready, jumpTo]);
}

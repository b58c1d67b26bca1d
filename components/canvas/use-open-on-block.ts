'use client';

import { useNodesInitialized } from '@xyflow/react';
import { useEffect, useRef } from 'react';

/**
 * Opens the canvas on one block (the `?block=<id>` of a link, such as a client's current block
 * on the client profile): once React Flow has measured the nodes and made its first fit, the
 * block is centred and selected, once. An id the bot no longer has leaves the whole bot in view.
 */
export function useOpenOnBlock(blockId: number | null, jumpTo: (blockId: number) => void) {
  const nodesReady = useNodesInitialized();
  const done = useRef(false);
  useEffect(() => {
    if (blockId === null || done.current || !nodesReady) return;
    done.current = true;
    requestAnimationFrame(() => jumpTo(blockId));
  }, [blockId, nodesReady, jumpTo]);
}

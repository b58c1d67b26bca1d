/**
 * The canvas benchmark's baseline: a bare React Flow page, the bot's blocks as default nodes and
 * its arrows as edges, with nothing of Blockbot. Bundled by bare-server.ts; fetches its graph like
 * the builder fetches its bot.
 */
import { type Edge, type Node, ReactFlow, useEdgesState, useNodesState } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Flow({ graph }: { graph: { nodes: Node[]; edges: Edge[] } }) {
  const [nodes, , onNodesChange] = useNodesState(graph.nodes);
  const [edges, , onEdgesChange] = useEdgesState(graph.edges);
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      fitView
      minZoom={0.05}
      maxZoom={2}
    />
  );
}

function App() {
  const [graph, setGraph] = useState<{ nodes: Node[]; edges: Edge[] } | null>(null);
  useEffect(() => {
    void fetch('/graph.json')
      .then((r) => r.json())
      .then(setGraph);
  }, []);
  return <div style={{ width: '100vw', height: '100vh' }}>{graph ? <Flow graph={graph} /> : null}</div>;
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);

#!/usr/bin/env node
// `node bench/heap-summary.mjs <file.heapsnapshot> [rows]`: what a V8 heap snapshot holds, by
// constructor (objects) or kind (strings, code, arrays…): count and own size, largest first,
// and for the largest the constructors that hold references to them (their retainers, by edge
// count). For the snapshots `npm run bench -- start` writes with BENCH_START_HEAP_SNAPSHOTS.
import fs from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/heap-summary.mjs <file.heapsnapshot> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const { snapshot, nodes, edges, strings } = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodeFields = snapshot.meta.node_fields;
const edgeFields = snapshot.meta.edge_fields;
const nodeTypes = snapshot.meta.node_types[0];
const edgeTypes = snapshot.meta.edge_types[0];
const N = nodeFields.length;
const E = edgeFields.length;
const [typeAt, nameAt, sizeAt, edgeCountAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
  nodeFields.indexOf(f),
);
const [edgeTypeAt, toAt] = ['type', 'to_node'].map((f) => edgeFields.indexOf(f));

/** A node's group: its constructor for objects, its kind (and a short name) for the rest. */
function group(node) {
  const type = nodeTypes[nodes[node + typeAt]];
  const name = strings[nodes[node + nameAt]];
  if (type === 'object' || type === 'closure') return `${type} ${name.slice(0, 60)}`;
  if (type === 'code' || type === 'hidden' || type === 'array' || type === 'native')
    return `${type} ${name.slice(0, 40)}`;
  return `(${type})`;
}

const groups = new Map();
let total = 0;
for (let node = 0; node < nodes.length; node += N) {
  const key = group(node);
  const entry = groups.get(key) ?? { count: 0, size: 0, retainers: new Map() };
  entry.count++;
  entry.size += nodes[node + sizeAt];
  total += nodes[node + sizeAt];
  groups.set(key, entry);
}
const largest = [...groups.entries()].sort((a, b) => b[1].size - a[1].size).slice(0, rows);
const wanted = new Map(largest.slice(0, 10));

// Retainers of the ten largest groups: who holds an edge (not a weak one) to their nodes.
let edge = 0;
for (let node = 0; node < nodes.length; node += N) {
  const from = group(node);
  for (let i = 0; i < nodes[node + edgeCountAt]; i++, edge += E) {
    if (edgeTypes[edges[edge + edgeTypeAt]] === 'weak') continue;
    const target = wanted.get(group(edges[edge + toAt]));
    if (target) target.retainers.set(from, (target.retainers.get(from) ?? 0) + 1);
  }
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(`${file}: ${nodes.length / N} nodes, ${mib(total)} own size in all`);
for (const [key, { count, size, retainers }] of largest) {
  console.log(`${mib(size).padStart(10)} ${String(count).padStart(8)}  ${key}`);
  if (!wanted.has(key)) continue;
  const top = [...retainers.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4);
  console.log(`${' '.repeat(20)}held by: ${top.map(([name, n]) => `${name} (${n})`).join(', ')}`);
}

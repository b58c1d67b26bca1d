// Loaded with `node --import` into the server that `npm run bench -- start` measures: answers
// 'memory' over the IPC channel with the process's own figures, which no outside tool reads
// (V8's heap and its spaces, external memory, array buffers), and `{ heapSnapshot: file }` by
// writing a V8 heap snapshot there (answering its path).
import v8 from 'node:v8';

process.on('message', (message) => {
  if (message?.heapSnapshot) {
    process.send?.(v8.writeHeapSnapshot(message.heapSnapshot));
    return;
  }
  if (message !== 'memory') return;
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]),
  );
  process.send?.({ ...process.memoryUsage(), spaces });
});

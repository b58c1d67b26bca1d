// Loaded with `node --import` into the server that `npm run bench -- start` measures: answers
// 'memory' over the IPC channel with the process's own figures, which no outside tool reads
// (V8's heap and its spaces, external memory, array buffers).
import v8 from 'node:v8';

process.on('message', (message) => {
  if (message !== 'memory') return;
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]),
  );
  process.send?.({ ...process.memoryUsage(), spaces });
});

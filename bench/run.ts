/**
 * `npm run bench -- <name>`: runs one benchmark (or all) and prints its figures. Benchmarks
 * print; they never fail on time.
 */
const benches: Record<string, string> = {
  formula: './formula.bench.ts',
  engine: './engine.bench.ts',
  api: './api.bench.ts',
  canvas: './canvas.bench.ts',
  'formula-editor': './formula-editor.bench.ts',
  isolation: './isolation.bench.ts',
  tg: './tg.bench.ts',
  chatapp: './chatapp.bench.ts',
  'client-search': './client-search.bench.ts',
  widget: './widget.bench.ts',
  start: './start.bench.ts',
  webhooks: './webhooks.bench.ts',
  'crm-board': './crm-board.bench.ts',
  'list-import': './list-import.bench.ts',
  broadcast: './broadcast.bench.ts',
  versions: './versions.bench.ts',
  analytics: './analytics.bench.ts',
  knowledge: './knowledge.bench.ts',
  telephony: './telephony.bench.ts',
  'conversation-tests': './conversation-tests.bench.ts',
  'co-editing': './co-editing.bench.ts',
};

async function main() {
  // What the runtime does at a process's start: the engine gets the channels (it imports none).
  (await import('../server/channels/registry')).installChannels();
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length ? wanted : Object.keys(benches);
  for (const name of names) {
    const file = benches[name];
    if (!file) {
      console.error(`Unknown benchmark "${name}". Available: ${Object.keys(benches).join(', ')}`);
      process.exit(2);
    }
    console.log(`\n=== ${name} ===`);
    const mod = (await import(file)) as { run(): Promise<void> };
    await mod.run();
  }
}

export {};

await main();

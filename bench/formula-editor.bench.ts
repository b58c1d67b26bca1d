/**
 * `npm run bench -- formula-editor`: the work the builder's formula editor does in the browser's
 * main thread, on the 1,000-block bot of the canvas benchmark. Per keystroke: error markers
 * (the same parser the server uses) and semantic highlighting of the edited formula. Per opened
 * completion list: the bot's known variables (every formula parsed) and the filtered items.
 * Prints figures; never fails on time.
 */

import { semanticTokenData } from '../components/formula-editor/semantic-tokens';
import { getCompletions, getDiagnostics, getSignatureHelp, knownVariables } from '../lib/formula';
import { botSchemaSchema } from '../lib/schema';
import { generateBot } from './canvas/generate-bot';

/** Mean milliseconds per call over at least `minMs` of calls (after a warm-up). */
function msPerCall(fn: () => unknown, minMs = 500): number {
  for (let i = 0; i < 20; i++) fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    fn();
    n++;
  }
  return (performance.now() - start) / n;
}

const line = (i: number) =>
  `total_${i} = round(price * qty * (1 - discount) + len(name) / ${i + 1}, 2) /* line ${i} */`;

export async function run() {
  const bot = botSchemaSchema.parse(generateBot(1000));
  const formulas = bot.blocks.filter((b) => b.formula.trim()).length;
  const long = Array.from({ length: 200 }, (_, i) => line(i)).join('\n');
  const typing = `${long}\nx = replace(name, 'a', `;
  const variables = knownVariables(bot, ['shop_url', 'token']);

  const figures: [string, number][] = [
    [
      `known variables of the bot (${bot.blocks.length} blocks, ${formulas} formulas)`,
      msPerCall(() => knownVariables(bot)),
    ],
    [
      `completion items, ${variables.length} variables`,
      msPerCall(() => getCompletions(typing, typing.length - 10, variables)),
    ],
    ['error markers, 1-line formula', msPerCall(() => getDiagnostics('price = round(base * 1.2, 2)'))],
    ['error markers, 200-line formula', msPerCall(() => getDiagnostics(long))],
    [
      'error markers, comparison expression',
      msPerCall(() => getDiagnostics('len(question) > 3 and age >= 18', 'expression')),
    ],
    ['semantic tokens, 200-line formula', msPerCall(() => semanticTokenData(long))],
    [
      'signature help at the end of a 200-line formula',
      msPerCall(() => getSignatureHelp(typing, typing.length)),
    ],
  ];
  console.log("The formula editor's work (ms per call; a frame is 16.7 ms):");
  for (const [name, ms] of figures) console.log(`  ${name.padEnd(72)} ${ms.toFixed(3).padStart(8)} ms`);
}

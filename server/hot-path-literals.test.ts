import fs from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * In V8 (Node 20) an object literal that starts with a spread adds each later property the slow
 * way, about 0.7 µs each where the same literal with the spread last costs tens of nanoseconds
 * (docs/architecture.md, "Code on the hot path"): the event's final write lost some 0.15 ms of
 * CPU an update to it. The code every tg update runs through keeps none.
 */
const HOT_PATH = [
  'server/channels/tg/webhook.ts',
  'server/channels/tg/updates.ts',
  'server/channels/tg/adapter.ts',
  'server/channels/tg/pacing.ts',
  'server/channels/tg/bot-api.ts',
  'server/channels/inbound/pipeline.ts',
  'server/engine/handle-event.ts',
  'server/engine/client-lease.ts',
  'server/engine/event-state.ts',
  'server/engine/event-run.ts',
  'server/engine/event-writes.ts',
  'server/engine/run-state.ts',
  'server/engine/run-variables.ts',
  'server/engine/run-templates.ts',
  'server/engine/run-timers.ts',
  'server/engine/run-deals.ts',
  'server/engine/run-lists.ts',
  'server/engine/outbox.ts',
  'server/engine/outbox-sends.ts',
  'server/engine/steps/message.ts',
  'server/db/raw-sql.ts',
  'server/node-http/reply.ts',
  'server/http/safe-fetch.ts',
  'lib/tg/inbound.ts',
  'lib/tg/render.ts',
  'lib/template/parse.ts',
  'lib/template/render.ts',
  'lib/storable-json.ts',
];

/**
 * Lines of object literals that start with a spread and go on with properties of their own. A
 * property that only overrides one the spread has is fast, and is told by its value reading it
 * from the spread's source (`{ ...block, ai: block.ai! }`, narrowing a type).
 */
function leadingSpreads(source: string): number[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node) && node.properties.length > 1) {
      const [first, ...rest] = node.properties;
      const from = ts.isSpreadAssignment(first) ? first.expression.getText(file) : null;
      const adds = rest.some(
        (p) =>
          !ts.isSpreadAssignment(p) &&
          !(
            ts.isPropertyAssignment(p) &&
            p.initializer.getText(file).includes(`${from}.${p.name.getText(file)}`)
          ),
      );
      if (from !== null && adds) lines.push(file.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

describe('hot-path object literals', () => {
  it('the checker finds a leading spread followed by properties, and nothing else', () => {
    const code = [
      'const a = { ...row, direction: "in" };',
      'const b = { direction: "in", ...row };',
      'const c = { ...row, ...more };',
      'const d = { ...row };',
      'const e = { ...block, ai: block.ai! };',
      'const f = { ...block, ai: other.ai };',
    ].join('\n');
    expect(leadingSpreads(code)).toEqual([1, 6]);
  });

  it('none in the code every tg update runs through', () => {
    const found = HOT_PATH.flatMap((file) =>
      leadingSpreads(fs.readFileSync(file, 'utf8')).map((line) => `${file}:${line}`),
    );
    expect(found).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md, "The flow of a message": steps and in-flow functions see the event as a
 * `RunContext`, never the whole `RunState`, which only the runner and the final write use; and
 * the engine's modules stay small (300 lines at most, tests aside).
 */
const MAX_LINES = 300;
const RUN_STATE = path.join('server', 'engine', 'run-state');
/** The runner, the event's flow and its final write: the only users of the whole run state. */
const MAY_USE_RUN_STATE = ['event-run.ts', 'handle-event.ts', 'event-writes.ts'].map((f) =>
  path.join('server', 'engine', f),
);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [full] : [];
  });
}

/** The modules a file imports, resolved against its folder (`@/` is the repository's root). */
function imports(file: string, source: string): string[] {
  return [...source.matchAll(/\bfrom\s+'([^']+)'/g)].map(([, spec]) =>
    spec.startsWith('@/') ? path.normalize(spec.slice(2)) : path.join(path.dirname(file), spec),
  );
}

const importsRunState = (file: string, source: string) =>
  imports(file, source).some((target) => target === RUN_STATE);

describe('the engine keeps its shape', () => {
  it('the checker resolves imports of the run state, and no other run-state', () => {
    const step = path.join('server', 'engine', 'steps', 'x.ts');
    expect(importsRunState(step, "import type { RunState } from '../run-state';")).toBe(true);
    expect(importsRunState(step, "import { RunState } from '@/server/engine/run-state';")).toBe(true);
    expect(importsRunState(step, "import type { RunContext } from '../run-context';")).toBe(false);
    const formula = path.join('lib', 'formula', 'x.ts');
    expect(importsRunState(formula, "import { RunState } from './run-state';")).toBe(false);
  });

  it('only the runner and the final write see the whole run state; steps and functions get its context', () => {
    const offenders = [...sourceFiles('server'), ...sourceFiles('lib')].filter(
      (file) => !MAY_USE_RUN_STATE.includes(file) && importsRunState(file, fs.readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it(`no module of server/engine is over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(path.join('server', 'engine')).flatMap((file) => {
      const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
      return lines > MAX_LINES ? [`${file}: ${lines} lines`] : [];
    });
    expect(long).toEqual([]);
  });
});

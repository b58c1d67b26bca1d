import { spawn } from 'node:child_process';
import path from 'node:path';

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry point in a child process, as `npm run` would, and collects its output. */
export function runTsx(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), [script, ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

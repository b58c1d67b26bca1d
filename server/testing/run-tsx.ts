import { spawn } from 'node:child_process';
import path from 'node:path';

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunTsxOptions {
  /**
   * Flags for node itself (`--max-old-space-size=256`): the script then runs in one node
   * process with tsx as its loader, so the flags, and a kill, reach the process that runs it.
   */
  nodeFlags?: string[];
  /** Kills the process after this long (its code is then 1). */
  timeoutMs?: number;
}

/** Runs a TypeScript entry point in a child process, as `npm run` would, and collects its output. */
export function runTsx(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: RunTsxOptions = {},
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const { nodeFlags, timeoutMs } = options;
    const [command, argv] = nodeFlags
      ? [process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args]]
      : [path.resolve('node_modules/.bin/tsx'), [script, ...args]];
    const child = spawn(command, argv, { env: { ...process.env, ...env } });
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : undefined;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

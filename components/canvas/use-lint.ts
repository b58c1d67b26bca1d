'use client';

import { useEffect, useRef, useState } from 'react';
import type { Plan } from '@/lib/formula/plans';
import type { BotSchema } from '@/lib/schema';
import type { LintProblem, MessengerCapabilities } from '@/lib/schema/lint';

export interface LintRequest {
  id: number;
  schema: Pick<BotSchema, 'blocks' | 'arrows'>;
  messengers: readonly MessengerCapabilities[];
  plan: Plan | undefined;
  /** The project's list ids once known (the `unknown-list` rule waits for them). */
  listIds: readonly number[] | undefined;
  /** The project's CRM stage ids (the `unknown-crm-stage` rule); undefined until read. */
  crmStateIds: readonly number[] | undefined;
}
export interface LintResponse {
  id: number;
  problems: LintProblem[];
}

const NONE: readonly LintProblem[] = [];

/**
 * The lint problems of `schema` (lib/schema/lint.ts), computed in a worker (lint.worker.ts): a
 * big bot's rules take a few hundred milliseconds, and the canvas never waits for them. The
 * previous problems stay until the answer for the latest schema comes; older answers are dropped.
 */
export function useLintProblems(
  schema: Pick<BotSchema, 'blocks' | 'arrows'>,
  messengers: readonly MessengerCapabilities[],
  plan: Plan | undefined,
  listIds?: readonly number[],
  crmStateIds?: readonly number[],
): readonly LintProblem[] {
  const [problems, setProblems] = useState(NONE);
  const worker = useRef<Worker | null>(null);
  const latest = useRef(0);
  useEffect(() => {
    const lint = new Worker(new URL('./lint.worker.ts', import.meta.url), { type: 'module' });
    lint.onmessage = ({ data }: MessageEvent<LintResponse>) => {
      if (data.id === latest.current) setProblems(data.problems);
    };
    worker.current = lint;
    return () => {
      lint.terminate();
      worker.current = null;
    };
  }, []);
  useEffect(() => {
    const request: LintRequest = { id: ++latest.current, schema, messengers, plan, listIds, crmStateIds };
    worker.current?.postMessage(request);
  }, [schema, messengers, plan, listIds, crmStateIds]);
  return problems;
}

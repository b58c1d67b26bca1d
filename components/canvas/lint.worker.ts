// The bot's lint off the main thread: a big bot's rules take a few hundred milliseconds, which
// would otherwise hold up the canvas (a click, a drag) each time an edit is committed.
import { type LintOptions, lintBot } from '@/lib/schema/lint';
import type { LintRequest, LintResponse } from './use-lint';

self.onmessage = ({ data }: MessageEvent<LintRequest>) => {
  const options: LintOptions = {
    messengers: data.messengers,
    plan: data.plan,
    listIds: data.listIds,
    crmStateIds: data.crmStateIds,
  };
  const response: LintResponse = { id: data.id, problems: lintBot(data.schema, options) };
  self.postMessage(response);
};

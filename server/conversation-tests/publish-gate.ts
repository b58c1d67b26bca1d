import type { TestReport } from '@/lib/conversation-tests/results';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError, invalid } from '@/server/errors';
import {
  type Publisher,
  type PublishOptions,
  publishDraft,
  type VersionSummary,
} from '@/server/versions/bot-versions';
import type { SuiteOptions } from './run-suite';
import { runTestSuite } from './test-runs';

export interface GatedPublishOptions extends Omit<PublishOptions, 'tests'> {
  /** Publish even though tests fail (owners and admins; the note must say why). */
  publishAnyway?: boolean;
  /** Queues the tests' run for a worker (the UI's publish); absent: this process runs them (the CLI). */
  queueTests?: SuiteOptions['queue'];
}

/**
 * Publishing with the draft's conversation tests (docs/conversation-tests.md, "On publish"): every
 * test runs against the draft first; when one fails nothing is published and the report says
 * which and where, unless the publisher publishes anyway with a note, which the version keeps with
 * its test counts. The draft that is published is the one tested: a draft saved meanwhile is
 * refused by its revision, as any stale publish is.
 */
export async function publishWithTests(
  deps: EngineDeps,
  projectId: number,
  by: Publisher,
  options: GatedPublishOptions = {},
): Promise<{ version: VersionSummary | null; tests: TestReport | null }> {
  const seen = await deps.db.project.findUnique({
    where: { id: projectId },
    select: { schemaRevision: true },
  });
  if (!seen) throw new DomainError('not_found', `Project ${projectId} does not exist.`);
  const expectedRevision = options.expectedRevision ?? seen.schemaRevision;
  const hasTests = (await deps.db.botTest.count({ where: { projectId } })) > 0;
  const report = hasTests
    ? await runTestSuite(deps, projectId, { bot: 'draft', queue: options.queueTests })
    : null;
  if (report?.failed) {
    if (!options.publishAnyway) return { version: null, tests: report };
    if (!options.note?.trim())
      throw invalid(
        `${report.failed} test${report.failed === 1 ? '' : 's'} failed: to publish anyway, say why in the note (the version keeps it).`,
        'note',
      );
  }
  const version = await publishDraft(deps.db, projectId, by, {
    note: options.note,
    expectedRevision,
    tests: report ? { run: report.results.length, failed: report.failed } : undefined,
  });
  return { version, tests: report };
}

import fs from 'node:fs/promises';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { junitXml, reportText } from '@/lib/conversation-tests/junit';
import { describeFieldErrors, parseBotSchemaJson, serializeBotSchema } from '@/lib/schema';
import { formatLintProblems, lintBot } from '@/lib/schema/lint';
import { installChannels } from '@/server/channels/registry';
import { publishWithTests } from '@/server/conversation-tests/publish-gate';
import { runTestSuite } from '@/server/conversation-tests/test-runs';
import { closeDb, getDb, StartupError } from '@/server/db';
import { DomainError } from '@/server/errors';
import { safeFetch } from '@/server/http';
import { restoreAdmin } from '@/server/instance/admin';
import { createApiKey } from '@/server/projects/api-keys';
import { loadBotSchema, saveBotSchema } from '@/server/projects/bot-schema-store';
import { createProject, getProject, listAllProjects, PLANS } from '@/server/projects/project-service';
import { botSchemaContentErrors } from '@/server/projects/validate-bot-schema';
import { loadVersionSchema } from '@/server/versions/bot-versions';
import { addBackupCommands } from './backup-commands';
import { addTransferCommands } from './transfer-commands';

/** The admin CLI: `npm run blockbot -- <command>`. Talks to the configured database directly. */

class CliError extends Error {}

function projectId(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new InvalidArgumentError('a project id is a positive whole number');
  return id;
}

function versionNumber(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError("a version is a positive whole number (see the builder's Versions)");
  return n;
}

async function withDb<T>(run: (db: Awaited<ReturnType<typeof getDb>>) => Promise<T>): Promise<T> {
  const db = await getDb();
  try {
    return await run(db);
  } finally {
    await closeDb();
  }
}

/** Where the CLI writes: the process's stdout and stderr, or a test's buffers. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const PROCESS_OUTPUT: CliOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

function buildProgram(io: CliOutput = PROCESS_OUTPUT): Command {
  const { out } = io;
  // Set before any command is added, so every subcommand inherits them: commander then throws
  // instead of exiting, and main() turns that into the exit code.
  const program = new Command('blockbot')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .description('Blockbot administration: projects, API keys, bot schemas, tests, backups')
    .showHelpAfterError();

  const project = program.command('project').description('manage projects');
  project
    .command('create')
    .description('create a project (with the default CRM funnel)')
    .requiredOption('--name <name>', 'project name')
    .option('--plan <plan>', `plan: ${PLANS.join(', ')} (default: BLOCKBOT_DEFAULT_PLAN, free unless set)`)
    .option('--time-zone <tz>', 'IANA time zone', 'UTC')
    .option(
      '--owner <email>',
      'e-mail of the owner (becomes a member; linked to the account with this e-mail)',
    )
    .option('--demo', 'start with the demo bot')
    .action(
      async (opts: { name: string; plan?: string; timeZone: string; owner?: string; demo?: boolean }) => {
        if (opts.plan !== undefined && !(PLANS as readonly string[]).includes(opts.plan)) {
          throw new CliError(`--plan must be one of ${PLANS.join(', ')} (got "${opts.plan}")`);
        }
        const created = await withDb(async (db) => {
          const user = opts.owner
            ? await db.user.findUnique({ where: { email: opts.owner.toLowerCase() } })
            : null;
          return createProject(db, {
            name: opts.name,
            plan: opts.plan as (typeof PLANS)[number] | undefined,
            timeZone: opts.timeZone,
            withDemoBot: Boolean(opts.demo),
            owner: opts.owner ? { email: opts.owner, userId: user?.id } : undefined,
          });
        });
        out(`Created project ${created.id} "${created.name}" (plan ${created.plan}).\n`);
      },
    );

  project
    .command('list')
    .description('list all projects')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const projects = await withDb((db) => listAllProjects(db));
      if (opts.json) {
        out(`${JSON.stringify(projects, null, 2)}\n`);
        return;
      }
      if (!projects.length) out('No projects.\n');
      for (const p of projects) {
        out(
          `${p.id}\t${p.name}\t${p.plan}\t${p.timeZone}\t${p._count.clients} clients\t${p._count.apiKeys} keys\n`,
        );
      }
    });

  addTransferCommands(project, { out, withDb, projectId });

  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .description('create an API key; it is printed once and stored only as a hash')
    .requiredOption('--project <id>', 'project id', projectId)
    .option('--name <name>', 'key name', 'CLI key')
    .option('--can-delete-clients', 'allow this key to delete clients')
    .action(async (opts: { project: number; name: string; canDeleteClients?: boolean }) => {
      const created = await withDb(async (db) => {
        await getProject(db, opts.project);
        return createApiKey(db, opts.project, {
          name: opts.name,
          canDeleteClients: Boolean(opts.canDeleteClients),
        });
      });
      out(`${created.key}\n`);
      io.err(`API key "${created.name}" for project ${opts.project}: shown once, store it now.\n`);
    });

  const schema = program.command('schema').description('import and export bot schemas (docs/bot-schema.md)');
  schema
    .command('import')
    .description("replace a project's draft bot with a JSON file (docs/versions.md)")
    .requiredOption('--project <id>', 'project id', projectId)
    .option('--publish [note]', 'publish it too: clients on every channel get it (a note says what changed)')
    .argument('<file>', 'schema JSON file')
    .action(async (file: string, opts: { project: number; publish?: string | true }) => {
      const parsed = parseBotSchemaJson(await fs.readFile(file, 'utf8'));
      // What the builder refuses (a formula that does not parse, ...) is refused here too.
      const errors = parsed.ok ? botSchemaContentErrors(parsed.value) : parsed.errors;
      if (!parsed.ok || errors.length)
        throw new CliError(`${file} is not a valid bot schema:\n${describeFieldErrors(errors)}`);
      // The builder's lint: warnings are printed and the schema imported; errors refuse it.
      const problems = lintBot(parsed.value);
      if (problems.some((p) => p.severity === 'error'))
        throw new CliError(`${file} cannot be imported:\n${formatLintProblems(problems)}`);
      if (problems.length) io.err(formatLintProblems(problems));
      const { revision, version } = await withDb(async (db) => {
        await getProject(db, opts.project);
        const saved = await saveBotSchema(db, opts.project, parsed.value);
        if (opts.publish === undefined) return { ...saved, version: null };
        const note = opts.publish === true ? '' : opts.publish;
        // The file's (or the draft's) conversation tests run first, as in the builder.
        installChannels();
        const deps = { db, http: safeFetch, scheduler: NO_JOBS, now: () => new Date() };
        const published = await publishWithTests(deps, opts.project, { userId: null, name: 'CLI' }, { note });
        if (!published.version)
          throw new CliError(
            `the draft was saved but not published: its tests fail (run blockbot test --project ${opts.project}):\n${reportText(published.tests!)}`,
          );
        return { ...saved, version: published.version.number };
      });
      out(
        `Imported ${parsed.value.blocks.length} blocks and ${parsed.value.arrows.length} arrows into project ${opts.project}'s draft (revision ${revision})${version ? `, published as version ${version}` : '; publish it for clients to get it'}.\n`,
      );
    });

  schema
    .command('export')
    .description(
      "write a project's draft bot, or a published version, as JSON (to a file, or to standard output)",
    )
    .requiredOption('--project <id>', 'project id', projectId)
    .option('--version <number>', 'a published version instead of the draft', versionNumber)
    .argument('[file]', 'output file')
    .action(async (file: string | undefined, opts: { project: number; version?: number }) => {
      const botSchema = await withDb(async (db) => {
        await getProject(db, opts.project);
        if (opts.version !== undefined) return loadVersionSchema(db, opts.project, opts.version);
        return (await loadBotSchema(db, opts.project, { withTests: true })).schema;
      });
      const text = serializeBotSchema(botSchema);
      if (file) await fs.writeFile(file, text);
      else out(text);
    });

  program
    .command('test')
    .description("run a project's conversation tests (docs/conversation-tests.md); exits 1 when one fails")
    .requiredOption('--project <id>', 'project id', projectId)
    .option('--version <number>', "a published version's own tests instead of the draft's", versionNumber)
    .option('--junit <file>', 'also write the results as JUnit XML (for CI servers)')
    .action(async (opts: { project: number; version?: number; junit?: string }) => {
      const { report, name } = await withDb(async (db) => {
        const project = await getProject(db, opts.project);
        installChannels();
        const deps = { db, http: safeFetch, scheduler: NO_JOBS, now: () => new Date() };
        return {
          name: project.name,
          report: await runTestSuite(deps, opts.project, { bot: opts.version ?? 'draft' }),
        };
      });
      out(reportText(report));
      if (opts.junit) await fs.writeFile(opts.junit, junitXml(report, name));
      if (report.failed) throw new TestsFailed();
    });

  program
    .command('instance-admin')
    .description('make an account an admin of this instance and enable it (when the admins lost access)')
    .argument('<email>', "the account's e-mail")
    .action(async (email: string) => {
      const user = await withDb((db) => restoreAdmin(db, email));
      out(`${user.email} is an admin of this instance; sign in and open /instance.\n`);
    });

  addBackupCommands(program, out);
  return program;
}

/** Failing tests: the report says which; the exit code says so to a CI pipeline. */
class TestsFailed extends Error {}

/** The CLI's runs fire timers on each test's own clock: nothing is queued. */
const NO_JOBS = { schedule: async () => null, cancel: async () => {} };

/** Runs one command line; the exit code. */
export async function main(argv: string[], io: CliOutput = PROCESS_OUTPUT): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv);
    return 0;
  } catch (error) {
    // Help, a version, or a bad argument: commander has written what it had to say.
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof TestsFailed) return 1;
    // StartupError: the embedded database is open in a running server, say.
    if (error instanceof CliError || error instanceof DomainError || error instanceof StartupError) {
      io.err(`error: ${error.message}\n`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      io.err(`error: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}

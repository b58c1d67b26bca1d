import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeBotSchema } from '@/lib/schema';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { runTsx } from '@/server/testing/run-tsx';
import { main } from './index';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-cli-'));
const fixture = path.join(import.meta.dirname, 'fixtures', 'shop-bot.json');
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;

beforeAll(async () => {
  // The database the CLI opens, in this process's environment, which its processes inherit.
  app = await useFreshAppDatabase(tmp);
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/**
 * One command line, run in this process as `npm run blockbot --` runs it (cli/main.ts calls the
 * same main()): its exit code and what it wrote. Each command opens and closes the database.
 */
async function cli(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'blockbot', ...args], {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** The same command line in a CLI process of its own: the entry point, its exit code and streams. */
const cliProcess = (args: string[], env: Record<string, string> = {}) => runTsx('cli/main.ts', args, env);

// Every command opens the database anew, and a few start a process: on a loaded machine a test
// of many needs more than the default 30 s. It checks behaviour, not speed.
describe('admin CLI', { timeout: 180_000 }, () => {
  it('prints help', async () => {
    const help = await cliProcess(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['project', 'key', 'schema']) expect(help.stdout).toContain(command);
    const projectHelp = await cli('project', '--help');
    for (const command of ['export', 'import']) expect(projectHelp.stdout).toContain(command);
    const schemaHelp = await cli('schema', '--help');
    expect(schemaHelp.stdout).toContain('import');
    expect(schemaHelp.stdout).toContain('export');
  });

  it('creates a project and a key, imports a schema and exports it back byte-identical', async () => {
    const created = await cli('project', 'create', '--name', 'Shop', '--plan', 'business');
    expect(created).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Created project \d+ "Shop" \(plan business\)\.\n$/),
    });
    const projectId = created.stdout.match(/project (\d+)/)![1];

    const key = await cli('key', 'create', '--project', projectId, '--name', 'CRM', '--can-delete-clients');
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^bb_[A-Za-z0-9_-]{32}\n$/);
    expect(key.stderr).toContain('shown once');

    const list = await cli('project', 'list', '--json');
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        id: Number(projectId),
        name: 'Shop',
        plan: 'business',
        _count: { clients: 0, apiKeys: 1 },
      }),
    ]);

    const imported = await cli('schema', 'import', '--project', projectId, fixture);
    expect(imported).toMatchObject({
      code: 0,
      stdout: `Imported 3 blocks and 3 arrows into project ${projectId}'s draft (revision 1); publish it for clients to get it.\n`,
    });
    const out = path.join(tmp, 'exported.json');
    expect((await cli('schema', 'export', '--project', projectId, out)).code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(fixture, 'utf8'));
    const toStdout = await cli('schema', 'export', '--project', projectId);
    expect(toStdout.stdout).toBe(fs.readFileSync(fixture, 'utf8'));

    // Published from the CLI, and exported by its version number; not while it adds clients to
    // a list the project does not have.
    const refused = await cli('schema', 'import', '--project', projectId, '--publish', 'From CI', fixture);
    expect(refused.stderr).toContain("block #2: This block's actions use list 1, which no longer exists");
    const withoutList = JSON.parse(fs.readFileSync(fixture, 'utf8'));
    delete withoutList.blocks[1].actions;
    const publishable = path.join(tmp, 'publishable.json');
    fs.writeFileSync(publishable, serializeBotSchema(withoutList));
    const published = await cli(
      'schema',
      'import',
      '--project',
      projectId,
      '--publish',
      'From CI',
      publishable,
    );
    expect(published.stdout).toContain('published as version 1');
    const version = await cli('schema', 'export', '--project', projectId, '--version', '1');
    expect(version.stdout).toBe(fs.readFileSync(publishable, 'utf8'));
    expect((await cli('schema', 'export', '--project', projectId, '--version', '2')).stderr).toContain(
      'The bot has no version 2.',
    );
  });

  it('refuses a malformed schema file with errors that name the field, and keeps the saved schema', async () => {
    const created = await cli('project', 'create', '--name', 'Strict');
    const projectId = created.stdout.match(/project (\d+)/)![1];
    expect((await cli('schema', 'import', '--project', projectId, fixture)).code).toBe(0);
    const bad = JSON.parse(fs.readFileSync(fixture, 'utf8'));
    bad.blocks[1].kind = 'menu';
    bad.blocks[1].buttons[0].text = '';
    const badFile = path.join(tmp, 'bad.json');
    fs.writeFileSync(badFile, JSON.stringify(bad));
    const result = await cli('schema', 'import', '--project', projectId, badFile);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${badFile} is not a valid bot schema:`);
    expect(result.stderr).toContain('blocks[1].kind: ');
    expect(result.stderr).toContain('blocks[1].buttons[0].text: button text is empty');
    // What the builder refuses is refused here too: a formula that does not parse.
    const broken = JSON.parse(fs.readFileSync(fixture, 'utf8'));
    broken.blocks[0].formula = 'total = (1 +';
    fs.writeFileSync(badFile, JSON.stringify(broken));
    const refused = await cli('schema', 'import', '--project', projectId, badFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`block ${broken.blocks[0].id}, formula: line 1`);
    const notJson = path.join(tmp, 'not.json');
    fs.writeFileSync(notJson, '{ "format": ');
    expect((await cli('schema', 'import', '--project', projectId, notJson)).stderr).toContain(
      'the file is not valid JSON',
    );
    expect((await cli('schema', 'export', '--project', projectId)).stdout).toBe(
      fs.readFileSync(fixture, 'utf8'),
    );
  });

  it("prints the builder's lint warnings on import, and still imports the schema", async () => {
    const created = await cli('project', 'create', '--name', 'Linted');
    const projectId = created.stdout.match(/project (\d+)/)![1];
    const schema = JSON.parse(fs.readFileSync(fixture, 'utf8'));
    const menu = schema.blocks[1];
    schema.blocks.push({ id: 90, kind: 'not_state', name: 'Note', text: 'Noted' });
    schema.arrows.push(
      { id: 90, from: menu.id, to: 90, kind: 'unconditional' },
      { id: 91, from: 90, to: menu.id, kind: 'condition', condition: { alternatives: 'back' } },
    );
    const file = path.join(tmp, 'linted.json');
    fs.writeFileSync(file, JSON.stringify(schema));
    const result = await cli('schema', 'import', '--project', projectId, file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Imported 4 blocks and 5 arrows into project ${projectId}`);
    expect(result.stderr).toContain(
      'warning arrow #91 (arrow-from-not-state): This arrow never fires: the client never stands in block #90',
    );
    expect(result.stderr).toContain('info block #2 (placeholder-never-set): #{q} is never set');
  });

  it('gives clear errors for bad arguments', async () => {
    expect(await cliProcess(['project', 'create', '--name', 'X', '--plan', 'gold'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--plan must be one of free, business, ai'),
    });
    expect(await cliProcess(['key', 'create', '--project', 'abc'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('a project id is a positive whole number'),
    });
    expect(await cli('key', 'create', '--project', 'abc')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('a project id is a positive whole number'),
    });
    expect((await cli('schema', 'export', '--project', '99999')).stderr).toContain(
      'Project 99999 does not exist.',
    );
    expect(
      (await cli('schema', 'import', '--project', '1', path.join(tmp, 'missing.json'))).stderr,
    ).toContain('no such file');
  });
  it('runs the conversation tests for CI: exit 0 when they pass, 1 with the difference and a JUnit file when one fails; a failing publish is refused', async () => {
    const created = await cli('project', 'create', '--name', 'Tested');
    const projectId = created.stdout.match(/project (\d+)/)![1];
    const greets = (value: string) => ({
      id: 1,
      name: 'Greets by name',
      clientName: 'Ann',
      steps: [
        { action: { type: 'text', text: 'hi' }, expect: { messages: [{ text: { match: 'exact', value } }] } },
      ],
    });
    const bot = {
      format: 'blockbot/schema@1',
      blocks: [{ id: 1, kind: 'start', text: 'Hi #{name}', trigger: { alternatives: '' } }],
      arrows: [],
    };
    const file = path.join(tmp, 'tested.json');
    fs.writeFileSync(file, JSON.stringify({ ...bot, tests: [greets('Hi Ann')] }));
    expect((await cli('schema', 'import', '--project', projectId, file)).code).toBe(0);
    const junit = path.join(tmp, 'junit.xml');
    const passing = await cli('test', '--project', projectId, '--junit', junit);
    expect(passing).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('  ✓ Greets by name\n1 passed, 0 failed'),
    });
    expect(fs.readFileSync(junit, 'utf8')).toContain('<testsuites tests="1" failures="0"');

    fs.writeFileSync(file, JSON.stringify({ ...bot, tests: [greets('Hello Ann')] }));
    const refused = await cli('schema', 'import', '--project', projectId, '--publish', 'v1', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the draft was saved but not published: its tests fail');
    const failing = await cli('test', '--project', projectId, '--junit', junit);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("  ✗ Greets by name: step 1: The bot's message 1 says something else.");
    expect(failing.stdout).toContain('      expected: Hello Ann\n      actual:   Hi Ann');
    expect(fs.readFileSync(junit, 'utf8')).toContain(
      '<failure message="Step 1: The bot\'s message 1 says something else."',
    );
  });
  it('moves a project through an archive: export, then import as a new project with a report; secrets only with the key', async () => {
    const created = await cli('project', 'create', '--name', 'Movable', '--demo');
    const projectId = created.stdout.match(/project (\d+)/)![1];
    const archive = path.join(tmp, 'movable.blockbot.gz');
    const exported = await cli('project', 'export', '--project', projectId, archive);
    expect(exported).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`Exported project ${projectId} to ${archive}:`),
    });
    expect(exported.stdout).toContain('  1 version\n');
    expect(exported.stdout).toContain('No secrets are in it');

    const idMap = path.join(tmp, 'ids.json');
    const imported = await cli('project', 'import', archive, '--name', 'Moved', '--json', '--id-map', idMap);
    expect(imported.code).toBe(0);
    const report = JSON.parse(imported.stdout);
    expect(report).toMatchObject({
      name: 'Moved',
      source: { projectId: Number(projectId) },
      counts: { project: 1, version: 1 },
    });
    expect(report.projectId).not.toBe(Number(projectId));
    // The demo project's one funnel and its four stages, with their new ids.
    const ids = JSON.parse(fs.readFileSync(idMap, 'utf8'));
    expect(Object.keys(ids.funnel)).toHaveLength(1);
    expect(Object.keys(ids.state)).toHaveLength(4);
    expect(report.idMap).toBeUndefined();

    expect(
      (await cli('project', 'export', '--project', projectId, '--with-secrets', archive)).stderr,
    ).toContain('--with-secrets needs --key');
    const sealed = await cliProcess(
      ['project', 'export', '--project', projectId, '--with-secrets', archive],
      {
        BLOCKBOT_EXPORT_KEY: 'a passphrase of some length',
      },
    );
    expect(sealed.stdout).toContain('Secrets are in it, sealed with your key');
    const wrong = await cli('project', 'import', archive, '--key', 'another passphrase here');
    expect(wrong).toMatchObject({
      code: 1,
      stderr: "error: the archive key is wrong: it does not open this archive's secrets\n",
    });
    const notArchive = await cli('project', 'import', fixture);
    expect(notArchive).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('is not a whole Blockbot project archive'),
    });
  });
});

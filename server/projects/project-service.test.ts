import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, getEnv, resetEnvCache } from '@/server/config/env';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { loadBotSchema } from '@/server/projects/bot-schema-store';
import {
  createProject,
  deleteProject,
  getProject,
  listAllProjects,
  renameProject,
  updateProjectSettings,
} from './project-service';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

describe('projects', () => {
  it('creates a project with the default funnel, its owner and the demo bot', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, {
      name: 'Shop',
      plan: 'business',
      timeZone: 'Europe/Berlin',
      owner: { email: 'Owner@Example.com' },
      withDemoBot: true,
    });
    expect(project).toMatchObject({ name: 'Shop', plan: 'business', timeZone: 'Europe/Berlin' });
    expect(project.webhookSecret).toMatch(/^whsec_/);
    const states = await db.crmState.findMany({
      where: { projectId: project.id },
      orderBy: { position: 'asc' },
    });
    expect(states.map((s) => s.name)).toEqual(['New', 'In progress', 'Won', 'Lost']);
    const members = await db.projectMember.findMany({ where: { projectId: project.id } });
    expect(members).toMatchObject([{ email: 'owner@example.com', role: 'owner' }]);
    const { schema, revision } = await loadBotSchema(db, project.id);
    expect(revision).toBe(1);
    expect(new Set(schema.blocks.map((b) => b.kind))).toEqual(
      new Set(['start', 'state', 'not_state', 'close_deal', 'comment']),
    );
    expect(schema.blocks.some((b) => b.formula)).toBe(true);
    expect(schema.arrows.some((a) => a.kind === 'timer')).toBe(true);
    expect(schema.arrows.some((a) => a.showAsButton)).toBe(true);
  });

  it('gives a new project the plan BLOCKBOT_DEFAULT_PLAN names (free when unset); a plan asked for wins', async () => {
    const db = tdb.prisma;
    const before = process.env.BLOCKBOT_DEFAULT_PLAN;
    const setDefault = (value: string | undefined) => {
      if (value === undefined) delete process.env.BLOCKBOT_DEFAULT_PLAN;
      else process.env.BLOCKBOT_DEFAULT_PLAN = value;
      resetEnvCache();
    };
    try {
      setDefault(undefined);
      expect((await createProject(db, { name: 'Unset' })).plan).toBe('free');
      setDefault(' business ');
      expect((await createProject(db, { name: 'Default', withDemoBot: true })).plan).toBe('business');
      expect((await createProject(db, { name: 'Asked', plan: 'free' })).plan).toBe('free');
      setDefault('gold');
      expect(() => getEnv()).toThrow(EnvError);
      expect(() => getEnv()).toThrow('BLOCKBOT_DEFAULT_PLAN: must be free, business or ai (got "gold")');
    } finally {
      setDefault(before);
    }
  });

  it('renames, updates settings and constants, and deletes', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, { name: 'Temp' });
    expect(project.plan).toBe('free');
    await renameProject(db, project.id, '  Renamed  ');
    await updateProjectSettings(db, project.id, {
      plan: 'ai',
      timeZone: 'Asia/Tokyo',
      webhookUrl: 'https://hooks.example.com/in',
      constants: [
        { name: 'shop_name', value: 'Blockbot shop' },
        { name: 'currency', value: 'EUR' },
      ],
    });
    const updated = await getProject(db, project.id);
    expect(updated).toMatchObject({
      name: 'Renamed',
      plan: 'ai',
      timeZone: 'Asia/Tokyo',
      webhookUrl: 'https://hooks.example.com/in',
    });
    expect(updated.constants.map((c) => [c.name, c.value])).toEqual([
      ['currency', 'EUR'],
      ['shop_name', 'Blockbot shop'],
    ]);
    await updateProjectSettings(db, project.id, { webhookUrl: '', constants: [] });
    expect(await getProject(db, project.id)).toMatchObject({ webhookUrl: null, constants: [] });

    await deleteProject(db, project.id);
    await expect(getProject(db, project.id)).rejects.toThrow(`Project ${project.id} does not exist.`);
    expect((await listAllProjects(db)).some((p) => p.id === project.id)).toBe(false);
  });

  it('refuses bad settings with a clear error and keeps what was saved', async () => {
    const db = tdb.prisma;
    const project = await createProject(db, { name: 'Strict' });
    await updateProjectSettings(db, project.id, { constants: [{ name: 'a', value: '1' }] });
    await expect(updateProjectSettings(db, project.id, { timeZone: 'Mars/Olympus' })).rejects.toThrow(
      '"Mars/Olympus" is not a time zone',
    );
    await expect(updateProjectSettings(db, project.id, { webhookUrl: 'ftp://x.example' })).rejects.toThrow(
      'must start with http:// or https://',
    );
    await expect(
      updateProjectSettings(db, project.id, {
        constants: Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, value: '' })),
      }),
    ).rejects.toThrow('at most 50 project constants');
    await expect(
      updateProjectSettings(db, project.id, {
        constants: [
          { name: 'x', value: '1' },
          { name: 'x', value: '2' },
        ],
      }),
    ).rejects.toThrow('"x" is defined twice');
    await expect(
      updateProjectSettings(db, project.id, { constants: [{ name: '1bad', value: '' }] }),
    ).rejects.toThrow('does not start with a digit');
    const kept = await getProject(db, project.id);
    expect(kept.timeZone).toBe('UTC');
    expect(kept.constants.map((c) => c.name)).toEqual(['a']);
  });
});

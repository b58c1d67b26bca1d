import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { startFakeOpenAi } from '@/server/ai/testing/fake-openai';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { loadBotSchema, saveBotSchema } from '@/server/projects/bot-schema-store';
import { loadSecrets } from '@/server/secrets/secret-service';
import { signedInCaller } from './testing/signed-in';

/** Settings, Secrets and Settings, AI through the UI's procedures: managers only, values never sent back. */

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

async function setup(tag: string) {
  const owner = await signedInCaller(tdb.prisma, `owner-${tag}@example.com`);
  const project = await owner.project.create({ name: tag, timeZone: 'UTC', withDemoBot: false });
  const operator = await signedInCaller(tdb.prisma, `op-${tag}@example.com`);
  await tdb.prisma.projectMember.create({
    data: {
      projectId: project.id,
      userId: `u-op-${tag}@example.com`,
      email: `op-${tag}@example.com`,
      role: 'operator',
    },
  });
  return { owner, operator, projectId: project.id };
}

describe('secrets', () => {
  it('are set and listed by managers without their values; operators are refused', async () => {
    const { owner, operator, projectId } = await setup('s1');
    await owner.secrets.set({ projectId, name: 'CRM_TOKEN', value: 'crm-value-123' });
    const list = await owner.secrets.list({ projectId });
    expect(list.map((s) => s.name)).toEqual(['CRM_TOKEN']);
    expect(JSON.stringify(list)).not.toContain('crm-value-123');
    await expect(operator.secrets.list({ projectId })).rejects.toThrow(/owner or an admin/);
    await expect(operator.secrets.set({ projectId, name: 'X', value: 'y' })).rejects.toThrow(
      /owner or an admin/,
    );
    await expect(owner.secrets.set({ projectId, name: 'bad name', value: 'y' })).rejects.toThrow(/name/);
  });

  it('a constant moved to secrets keeps its value, leaves the constants, and the draft’s requests use it', async () => {
    const { owner, projectId } = await setup('s2');
    await owner.project.updateSettings({
      projectId,
      constants: [{ name: 'API_TOKEN', value: 'tok-777-abc' }],
    });
    await saveBotSchema(tdb.prisma, projectId, {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: 'Token: #{project.API_TOKEN}',
          trigger: { alternatives: '' },
          request: {
            type: 'GET',
            url: 'https://crm.example/x',
            headers: '{"Authorization": "Bearer #{project.API_TOKEN}"}',
          },
        },
      ],
      arrows: [],
    });
    const moved = await owner.secrets.moveConstant({ projectId, name: 'API_TOKEN' });
    expect(moved).toEqual({ name: 'API_TOKEN', requestsRewritten: 1, stillReadIn: ['block #1'] });
    expect((await loadSecrets(tdb.prisma, projectId)).get('API_TOKEN')).toBe('tok-777-abc');
    expect(await tdb.prisma.projectConstant.count({ where: { projectId } })).toBe(0);
    const { schema } = await loadBotSchema(tdb.prisma, projectId);
    expect(schema.blocks[0].request?.headers).toBe('{"Authorization": "Bearer #{secret.API_TOKEN}"}');
    await expect(owner.secrets.moveConstant({ projectId, name: 'API_TOKEN' })).rejects.toThrow(
      /no project constant API_TOKEN/,
    );
  });
});

describe('AI settings', () => {
  it('providers and assistants are managers’; a bad field is named; one default at a time', async () => {
    const { owner, operator, projectId } = await setup('a1');
    const base = {
      baseUrl: 'https://api.openai.com/v1/',
      chatModel: 'gpt-4o-mini',
      apiKeySecret: 'OPENAI_KEY',
    };
    const first = await owner.ai.saveProvider({
      projectId,
      id: null,
      settings: { name: 'openai', ...base, isDefault: true },
    });
    expect(first.baseUrl).toBe('https://api.openai.com/v1');
    await owner.ai.saveProvider({
      projectId,
      id: null,
      settings: { name: 'local', ...base, isDefault: true },
    });
    const settings = await owner.ai.settings({ projectId });
    expect(settings.providers.map((p) => [p.name, p.isDefault])).toEqual([
      ['openai', false],
      ['local', true],
    ]);
    await expect(
      owner.ai.saveProvider({ projectId, id: null, settings: { name: 'openai', ...base } }),
    ).rejects.toThrow(/already exists/);
    await expect(
      owner.ai.saveProvider({ projectId, id: null, settings: { name: 'x', ...base, baseUrl: 'ftp://x' } }),
    ).rejects.toThrow(/baseUrl/);
    await expect(operator.ai.settings({ projectId })).rejects.toThrow(/owner or an admin/);
    const assistant = await owner.ai.saveAssistant({ projectId, id: null, settings: { name: 'Shop' } });
    expect(assistant.settings).toMatchObject({
      name: 'Shop',
      enabled: true,
      presets: { resistInjection: true },
    });
    await owner.ai.setLimits({ projectId, dailyTokenLimit: 1000 });
    expect((await owner.ai.settings({ projectId })).dailyTokenLimit).toBe(1000);
  });

  it('Test says what the provider answered, or why it could not', async () => {
    const { owner, projectId } = await setup('a2');
    const provider = await owner.ai.saveProvider({
      projectId,
      id: null,
      settings: {
        name: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        chatModel: 'gpt-4o-mini',
        apiKeySecret: 'MISSING',
      },
    });
    const result = await owner.ai.testProvider({ projectId, id: provider.id });
    expect(result.chat).toEqual({
      ok: false,
      message: expect.stringContaining('the API key secret MISSING of AI provider "openai" is not set'),
    });
  });

  it('Test says which token parameter and temperature were sent, and keeps what the model’s refusal taught', async () => {
    const { owner, projectId } = await setup('a3');
    const fake = await startFakeOpenAi({ reasoningModels: ['prod-chat'] });
    const allowed = process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
    process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
    try {
      await owner.secrets.set({ projectId, name: 'OPENAI_KEY', value: fake.apiKey });
      const provider = await owner.ai.saveProvider({
        projectId,
        id: null,
        settings: { name: 'azure', baseUrl: fake.url, chatModel: 'prod-chat', apiKeySecret: 'OPENAI_KEY' },
      });
      expect(provider).toMatchObject({ tokenParameter: 'auto', temperature: 'auto' });
      const first = await owner.ai.testProvider({ projectId, id: provider.id });
      expect(first.chat).toEqual({
        ok: true,
        message:
          'prod-chat answered "ok" (sent max_completion_tokens, no temperature, learnt from the model’s refusal and kept for its calls)',
      });
      expect(fake.requests).toHaveLength(3);
      fake.reset();
      const again = await owner.ai.testProvider({ projectId, id: provider.id });
      expect(again.chat.message).toBe('prod-chat answered "ok" (sent max_completion_tokens, no temperature)');
      expect(fake.requests).toHaveLength(1);
      await expect(
        owner.ai.saveProvider({
          projectId,
          id: provider.id,
          settings: { ...provider, tokenParameter: 'max_output_tokens' as 'auto' },
        }),
      ).rejects.toThrow(/tokenParameter/);
    } finally {
      await fake.close();
      if (allowed === undefined) delete process.env.BLOCKBOT_HTTP_ALLOW_HOSTS;
      else process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = allowed;
    }
  });
});

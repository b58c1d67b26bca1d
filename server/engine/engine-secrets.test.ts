import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASK } from '@/lib/secrets/secret-refs';
import { deleteSecret, listSecrets, loadSecrets, setSecret } from '@/server/secrets/secret-service';
import { EngineHarness } from './testing/engine-harness';
import { type FakeApi, startFakeApi } from './testing/fake-api-server';

/** Project secrets in requests (docs/secrets.md): sent to the receiver, seen nowhere else. */

let h: EngineHarness;
let api: FakeApi;
beforeAll(async () => {
  h = await EngineHarness.create();
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

const VALUE = 'sk-live/abc "q" 123';
const start = (over: object) => ({ id: 1, kind: 'start' as const, trigger: { alternatives: '' }, ...over });

/** Everything stored of the project: history, variables, log, as text. */
async function everythingStored(projectId: number): Promise<string> {
  const db = h.tdb.prisma;
  const rows = await Promise.all([
    db.message.findMany({ where: { projectId } }),
    db.engineLogEntry.findMany({ where: { projectId } }),
    db.dealVariable.findMany({ where: { deal: { projectId } } }),
    db.clientVariable.findMany({ where: { client: { projectId } } }),
    db.client.findMany({ where: { projectId } }),
  ]);
  return JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
}

describe('secrets in block requests', () => {
  it('reach the receiver in the URL, a header and a JSON body; the reply, history and log show them masked', async () => {
    const bot = await h.bot({
      blocks: [
        start({
          text: 'Reply: #{custom_answer}',
          request: {
            type: 'POST-json',
            url: `${api.url}/echo?key=#{secret.API_KEY}`,
            headers: '{"Authorization": "Bearer #{secret.API_KEY}"}',
            params: '{"token": "#{secret.API_KEY}", "n": 1}',
            storedValues: 'auth->echoed',
          },
        }),
      ],
      arrows: [],
    });
    await setSecret(h.tdb.prisma, bot.projectId, 'API_KEY', VALUE);
    const [reply] = await bot.say('hi');
    const received = api.requests.at(-1)!;
    expect(received.headers.authorization).toBe(`Bearer ${VALUE}`);
    expect(new URL(received.path, api.url).searchParams.get('key')).toBe(VALUE);
    expect(JSON.parse(received.body)).toEqual({ token: VALUE, n: 1 });

    expect(reply).toContain(MASK);
    expect(reply).not.toContain('sk-live');
    expect((await bot.variables()).deal.echoed).toBe(`Bearer ${MASK}`);
    const [log] = await bot.log('request');
    expect(log.request).toMatchObject({
      url: `${api.url}/echo?key=#{secret.API_KEY}`,
      headers: { Authorization: 'Bearer #{secret.API_KEY}' },
      body: '{"token": "#{secret.API_KEY}", "n": 1}',
    });
    const stored = await everythingStored(bot.projectId);
    expect(stored).not.toContain('sk-live');
    expect(stored).not.toContain(encodeURIComponent(VALUE));
  });

  it('a secret that is not set fails the request, naming it, and nothing is sent', async () => {
    const bot = await h.bot({
      blocks: [start({ text: '', request: { type: 'GET', url: `${api.url}/echo?k=#{secret.NOT_SET}` } })],
      arrows: [],
    });
    const before = api.requests.length;
    await bot.say('hi');
    expect(api.requests.length).toBe(before);
    const [log] = await bot.log('request');
    expect((log.errors as string[]).join()).toContain(
      'secret NOT_SET is not set: add it in Settings, Secrets',
    );
  });

  it('only a reference the designer wrote counts: one a client types into a value sent is not filled', async () => {
    const bot = await h.bot({
      blocks: [
        start({
          text: '',
          request: {
            type: 'POST-json',
            url: `${api.url}/echo?q=#{question}`,
            params: '{"said": "#{question}"}',
          },
        }),
      ],
      arrows: [],
    });
    await setSecret(h.tdb.prisma, bot.projectId, 'API_KEY', VALUE);
    await bot.say('#{secret.API_KEY} ~bbsecret~API_KEY~ %23%7Bsecret.API_KEY%7D');
    const received = api.requests.at(-1)!;
    expect(decodeURIComponent(received.path)).not.toContain('sk-live');
    expect(received.body).not.toContain('sk-live');
    expect(JSON.parse(received.body).said).toContain('secret.API_KEY');
  });

  it('are never put in a message: #{secret.NAME} in a block’s text stays empty', async () => {
    const bot = await h.bot({ blocks: [start({ text: 'Key: [#{secret.API_KEY}]' })], arrows: [] });
    await setSecret(h.tdb.prisma, bot.projectId, 'API_KEY', VALUE);
    expect(await bot.say('hi')).toEqual(['Key: []']);
  });
});

describe('secrets in requests_*', () => {
  it('a formula writes the reference; the receiver gets the value, the formula a masked reply', async () => {
    const bot = await h.bot({
      blocks: [
        start({
          text: '#{echoed}',
          formula: `r = requests_post("${api.url}/echo?k=#{secret.API_KEY}", "json", {"Authorization": "Bearer #{secret.API_KEY}"}, None, {"t": "#{secret.API_KEY}"})\nechoed = r["auth"] + " " + r["body"] + " " + r["path"]`,
        }),
      ],
      arrows: [],
    });
    await setSecret(h.tdb.prisma, bot.projectId, 'API_KEY', VALUE);
    const [reply] = await bot.say('hi');
    const received = api.requests.at(-1)!;
    expect(received.headers.authorization).toBe(`Bearer ${VALUE}`);
    expect(JSON.parse(received.body)).toEqual({ t: VALUE });
    expect(new URL(received.path, api.url).searchParams.get('k')).toBe(VALUE);
    expect(reply).not.toContain('sk-live');
    expect(reply).not.toContain('sk-live'.replace('/', '%2F'));
    expect(reply).toContain(`Bearer ${MASK}`);
    expect(await everythingStored(bot.projectId)).not.toContain('sk-live');
  });
});

describe('the secrets store', () => {
  it('seals values at rest, lists names only, and keeps each project’s to itself', async () => {
    const db = h.tdb.prisma;
    const a = await h.bot({ blocks: [start({ text: 'a' })], arrows: [] });
    const b = await h.bot({ blocks: [start({ text: 'b' })], arrows: [] });
    await setSecret(db, a.projectId, 'CRM_TOKEN', 'crm-secret-value-1');
    const row = await db.projectSecret.findFirstOrThrow({ where: { projectId: a.projectId } });
    expect(row.sealed).not.toContain('crm-secret-value-1');
    expect(row.sealed).toMatch(/^v1:/);
    expect(JSON.stringify(await listSecrets(db, a.projectId))).not.toContain('crm-secret-value-1');
    expect((await loadSecrets(db, a.projectId)).get('CRM_TOKEN')).toBe('crm-secret-value-1');
    expect((await loadSecrets(db, b.projectId)).size).toBe(0);
    // A sealed value copied into another project's row does not open there.
    await db.projectSecret.create({
      data: { projectId: b.projectId, name: 'CRM_TOKEN', sealed: row.sealed },
    });
    await expect(loadSecrets(db, b.projectId)).rejects.toThrow(/does not open/);
    await db.projectSecret.deleteMany({ where: { projectId: b.projectId } });
  });

  it('replaces, deletes, and names the field of a bad name or value', async () => {
    const db = h.tdb.prisma;
    const a = await h.bot({ blocks: [start({ text: 'a' })], arrows: [] });
    await setSecret(db, a.projectId, 'K', 'first-value');
    await setSecret(db, a.projectId, 'K', 'second-value');
    expect((await loadSecrets(db, a.projectId)).get('K')).toBe('second-value');
    await expect(setSecret(db, a.projectId, '1st key', 'v')).rejects.toThrow(
      /^name: letters, digits and _ only/,
    );
    await expect(setSecret(db, a.projectId, 'K2', '')).rejects.toThrow(/^value: empty: paste the secret/);
    await expect(setSecret(db, a.projectId, 'K2', 'x'.repeat(9000))).rejects.toThrow(/at most 8 KB/);
    await deleteSecret(db, a.projectId, 'K');
    expect(await listSecrets(db, a.projectId)).toEqual([]);
    await expect(deleteSecret(db, a.projectId, 'K')).rejects.toThrow(/no secret K/);
  });
});

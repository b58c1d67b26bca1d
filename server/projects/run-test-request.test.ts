import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { type FakeApi, startFakeApi } from '@/server/engine/testing/fake-api-server';
import { updateProjectSettings } from '@/server/projects/project-service';
import type { TRPCContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';

// The local fake API is reached on purpose, through the safe client's allow-list, as in production
// settings; a short timeout lets the slow endpoint fail fast.
process.env.BLOCKBOT_HTTP_ALLOW_HOSTS = '127.0.0.1';
process.env.BLOCKBOT_HTTP_TIMEOUT_MS = '1000';

let tdb: TestDatabase;
let api: FakeApi;
beforeAll(async () => {
  tdb = await createTestDatabase();
  api = await startFakeApi();
});
afterAll(async () => {
  await api?.close();
  await tdb?.close();
});

async function designer(email: string) {
  const user = await tdb.prisma.user.create({ data: { id: `u-${email}`, email, name: email.split('@')[0] } });
  const session = {
    user,
    session: { id: `s-${email}`, userId: user.id },
  } as unknown as TRPCContext['session'];
  const caller = createCaller({ db: tdb.prisma, session });
  const project = await caller.project.create({ name: 'Requests', timeZone: 'UTC', withDemoBot: false });
  return { caller, projectId: project.id };
}

const request = (patch: Record<string, unknown>) => ({
  type: 'GET' as const,
  url: `${api.url}/json`,
  headers: '',
  params: '',
  storedValues: '',
  checkParamsFormat: true,
  ...patch,
});

describe('test request from the request form', () => {
  it('sends a GET with sample values substituted and shows status, headers, body, JSON paths and stored values', async () => {
    const { caller, projectId } = await designer('get@example.com');
    const result = await caller.requestTest.run({
      projectId,
      request: request({
        url: `${api.url}/json?q=#{q}`,
        headers: '{"x-token": "#{token}"}',
        storedValues: 'data|items|0|name->first; data|items|9|name->missing',
      }),
      samples: [
        { name: 'q', value: 'a b&c' },
        { name: 'token', value: 'secret' },
      ],
    });
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: '/json?q=a%20b%26c' });
    expect(api.requests.at(-1)?.headers['x-token']).toBe('secret');
    expect(result.request).toMatchObject({ method: 'GET', url: `${api.url}/json?q=a%20b%26c` });
    expect(result.error).toBeNull();
    expect(result.response).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(result.response!.body).status).toBe('ok');
    expect(result.paths).toEqual([
      { path: 'status', value: 'ok' },
      { path: 'data|items|0|name', value: 'Pizza' },
      { path: 'data|items|0|price', value: '42' },
      { path: 'data|items|1|name', value: 'Tea' },
      { path: 'data|items|1|price', value: '3' },
    ]);
    expect(result.stored).toEqual([{ variable: 'first', value: 'Pizza' }]);
    expect(result.problems.join('\n')).toContain("'data|items|9' not found: the array has 2 elements");
  });

  it('sends POST-json with a bare #{n} as a number, expressions evaluated and project constants looked up', async () => {
    const { caller, projectId } = await designer('post@example.com');
    await updateProjectSettings(tdb.prisma, projectId, { constants: [{ name: 'shop', value: 'Corner' }] });
    const result = await caller.requestTest.run({
      projectId,
      request: request({
        type: 'POST-json',
        url: `${api.url}/echo`,
        params:
          '{"count": #{n}, "text": "#{n}", "sum": #{2 + 3}, "shop": "#{project.shop}", "also": "#{shop}"}',
        checkParamsFormat: false,
      }),
      samples: [{ name: 'n', value: '5' }],
    });
    const echoed = JSON.parse(result.response!.body);
    expect(echoed.type).toBe('application/json');
    expect(JSON.parse(echoed.body)).toEqual({ count: 5, text: '5', sum: 5, shop: 'Corner', also: 'Corner' });
    expect(result.request.body).toBe(echoed.body);
  });

  it('shows a text reply with no paths, and an error status as a reply', async () => {
    const { caller, projectId } = await designer('text@example.com');
    const text = await caller.requestTest.run({ projectId, request: request({ url: `${api.url}/text` }) });
    expect(text.response).toMatchObject({ status: 200, body: 'plain reply' });
    expect(text.paths).toBeNull();
    const failed = await caller.requestTest.run({ projectId, request: request({ url: `${api.url}/error` }) });
    expect(failed.response?.status).toBe(500);
    expect(failed.paths).toEqual([{ path: 'error', value: 'boom' }]);
  });

  it('explains refused addresses, timeouts, replies too large and requests that cannot be built', async () => {
    const { caller, projectId } = await designer('errors@example.com');
    const run = (patch: Record<string, unknown>) =>
      caller.requestTest.run({ projectId, request: request(patch) });
    const refused = await run({ url: 'http://10.1.2.3/admin' });
    expect(refused.response).toBeNull();
    expect(refused.error?.code).toBe('blocked_address');
    expect(refused.error?.message).toMatch(/10\.1\.2\.3/);
    expect((await run({ url: `${api.url}/slow` })).error?.code).toBe('timeout');
    expect((await run({ url: `${api.url}/huge` })).error?.code).toBe('too_large');
    const metadata = await run({ headers: '{"Metadata-Flavor": "Google"}' });
    expect(metadata.error).toMatchObject({
      code: 'bad_header',
      message: expect.stringContaining('Metadata-Flavor'),
    });
    const unbuilt = await run({ headers: '{"a": ' });
    expect(unbuilt.error).toMatchObject({ code: 'invalid' });
    expect(unbuilt.error?.message).toContain('Request header is not a JSON object');
    expect(api.requests.some((r) => r.path.includes('admin'))).toBe(false);
  });

  it('validates its input and refuses a project the caller is not a member of', async () => {
    const alice = await designer('alice@example.com');
    const bob = await designer('bob@example.com');
    await expect(
      bob.caller.requestTest.run({ projectId: alice.projectId, request: request({}) }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      alice.caller.requestTest.run({ projectId: alice.projectId, request: request({ type: 'PUT' }) }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      alice.caller.requestTest.run({
        projectId: alice.projectId,
        request: request({}),
        samples: [{ name: ' ', value: 'x' }],
      }),
    ).rejects.toThrow('a sample needs a variable name');
  });
});

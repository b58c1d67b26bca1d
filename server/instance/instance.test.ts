import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_TOKEN_HEADER, SIGN_UP_REFUSALS } from '@/lib/instance/sign-up';
import { baseUrl, resetEnvCache } from '@/server/config/env';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { useFreshAppDatabase } from '@/server/db/test-support';
import { type RouteServer, serveRoutes } from '@/server/testing/route-server';
import { createCaller } from '@/server/trpc/root';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { INSTANCE_PAGE_SIZE, setUserAdmin } from './admin';

/**
 * Who may sign up, through real HTTP to the auth route handler (its hooks refuse sign-ups and
 * disabled accounts' sign-ins), and the instance page's procedures with their admin check.
 */

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-instance-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
let db: PrismaClient;
let server: RouteServer;
const password = 'correct horse battery';

function useSignUpEnv(mode: string | undefined) {
  if (mode === undefined) delete process.env.BLOCKBOT_SIGNUP;
  else process.env.BLOCKBOT_SIGNUP = mode;
  resetEnvCache();
}

async function authPost(route: string, body: object, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/auth/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl(), ...headers },
    body: JSON.stringify(body),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { status: response.status, body: await response.json(), cookie };
}

const signUp = (email: string, headers?: Record<string, string>) =>
  authPost('sign-up/email', { email, password, name: email.split('@')[0] }, headers);
const signIn = (email: string) => authPost('sign-in/email', { email, password });

async function sessionOf(cookie: string) {
  const response = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } });
  return response.json();
}

/** The instance API as the account with this address, which must exist already. */
async function callerFor(email: string) {
  await db.user.findUniqueOrThrow({ where: { email } });
  return signedInCaller(db, email);
}

beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
  db = await getDb();
  const { GET, POST } = await import('@/app/api/auth/[...all]/route');
  const pattern = /^\/api\/auth\/(?<all>.+)$/;
  server = await serveRoutes([
    { method: 'GET', pattern, handler: GET, catchAll: 'all' },
    { method: 'POST', pattern, handler: POST, catchAll: 'all' },
  ]);
});
afterAll(async () => {
  server?.close();
  await app?.dispose();
  useSignUpEnv(undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the first account', () => {
  it('is allowed even when sign-up is closed, and exactly one of two at once becomes the admin', async () => {
    useSignUpEnv('closed');
    const answers = await Promise.all([signUp('first@example.com'), signUp('second@example.com')]);
    const admins = await db.user.findMany({ where: { instanceRole: 'admin' }, select: { email: true } });
    expect(admins).toHaveLength(1);
    const admin = answers.find((_, i) => admins[0].email === ['first@example.com', 'second@example.com'][i]);
    expect(admin?.status).toBe(200);
    // The other is refused, whether it came second or both passed the gate at once: a closed
    // instance has one account.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.find((a) => a !== admin)).toMatchObject({ status: 403, body: { code: 'SIGN_UP_CLOSED' } });
    expect(await db.user.count()).toBe(1);
    // Someone signing up now, with accounts on the instance, is refused with the page's words.
    const late = await signUp('late@example.com');
    expect(late).toMatchObject({
      status: 403,
      body: { code: 'SIGN_UP_CLOSED', message: SIGN_UP_REFUSALS.closed },
    });
    expect(await db.user.findUnique({ where: { email: 'late@example.com' } })).toBeNull();
    // Tidy: the first account is "first@" for the rest of the file.
    if (admins[0].email !== 'first@example.com')
      await db.user.update({ where: { email: admins[0].email }, data: { email: 'first@example.com' } });
  });
});

describe('sign-up modes', () => {
  it('open lets anyone sign up; the stored choice applies when BLOCKBOT_SIGNUP is unset', async () => {
    useSignUpEnv(undefined);
    const admin = await callerFor('first@example.com');
    expect(await admin.instance.setSignUp({ mode: 'open' })).toEqual({ mode: 'open', source: 'setting' });
    expect((await signUp('anyone@example.com')).status).toBe(200);
    // The role is not the sign-up's nor the account's to set.
    const sneaky = await authPost('sign-up/email', {
      email: 'sneaky@example.com',
      password,
      name: 'Sneaky',
      instanceRole: 'admin',
    });
    expect(sneaky.status).toBe(200);
    await authPost('update-user', { instanceRole: 'admin' }, { cookie: sneaky.cookie });
    expect((await db.user.findUniqueOrThrow({ where: { email: 'sneaky@example.com' } })).instanceRole).toBe(
      'user',
    );
    await admin.instance.setSignUp({ mode: 'closed' });
    expect((await signUp('closed@example.com')).body.code).toBe('SIGN_UP_CLOSED');
  });

  it('invite-only admits the invited address through its pending link, and nobody else', async () => {
    useSignUpEnv(undefined);
    const admin = await callerFor('first@example.com');
    await admin.instance.setSignUp({ mode: 'invite-only' });
    const project = await admin.project.create({ name: 'Shop', timeZone: 'UTC', withDemoBot: false });
    const { invite } = await admin.team.invite({
      projectId: project.id,
      email: 'nora@example.com',
      role: 'operator',
    });
    const token = String(invite.link).split('/invite/')[1];

    const refused = await signUp('nora@example.com');
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'SIGN_UP_INVITE_ONLY', message: SIGN_UP_REFUSALS['invite-only'] },
    });
    // The link opens the door for its own address only, and a made-up link for nobody.
    expect((await signUp('mallory@example.com', { [INVITE_TOKEN_HEADER]: token })).status).toBe(403);
    expect((await signUp('nora@example.com', { [INVITE_TOKEN_HEADER]: 'x'.repeat(32) })).status).toBe(403);
    const nora = await signUp('nora@example.com', { [INVITE_TOKEN_HEADER]: token });
    expect(nora.status).toBe(200);
    expect(nora.body.user.email).toBe('nora@example.com');
    // A withdrawn link admits no one: a new link replaces the old.
    const second = await admin.team.invite({
      projectId: project.id,
      email: 'omar@example.com',
      role: 'operator',
    });
    const old = String(second.invite.link).split('/invite/')[1];
    await admin.team.reinvite({ projectId: project.id, memberId: second.member.id });
    expect((await signUp('omar@example.com', { [INVITE_TOKEN_HEADER]: old })).status).toBe(403);
  });

  it('BLOCKBOT_SIGNUP fixes the mode: the page shows it locked and cannot change it', async () => {
    const admin = await callerFor('first@example.com');
    useSignUpEnv('open');
    expect(await admin.instance.signUp()).toEqual({ mode: 'open', source: 'env' });
    await expect(admin.instance.setSignUp({ mode: 'closed' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('BLOCKBOT_SIGNUP=open'),
    });
    expect((await signUp('env-open@example.com')).status).toBe(200);
    useSignUpEnv(undefined);
    expect((await admin.instance.signUp()).source).toBe('setting');
  });
});

describe('the instance page', () => {
  it('is for admins only', async () => {
    const user = await callerFor('anyone@example.com');
    for (const call of [
      () => user.instance.users({}),
      () => user.instance.projects({}),
      () => user.instance.signUp(),
      () => user.instance.setSignUp({ mode: 'open' }),
      () => user.instance.setDisabled({ userId: 'x', disabled: true }),
      () => user.instance.setAdmin({ userId: 'x', admin: true }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await user.instance.viewer()).toEqual({ admin: false });
    expect(await (await callerFor('first@example.com')).instance.viewer()).toEqual({ admin: true });
    const anonymous = createCaller({ db, session: null });
    await expect(anonymous.instance.users({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('lists accounts with their projects, and projects with owner and members, a page at a time', async () => {
    const admin = await callerFor('first@example.com');
    const { users } = await admin.instance.users({});
    expect(users[0]).toMatchObject({
      email: 'first@example.com',
      admin: true,
      disabledAt: null,
      projects: 1,
    });
    expect(users.find((u) => u.email === 'nora@example.com')).toMatchObject({ admin: false, projects: 0 });
    const { projects } = await admin.instance.projects({});
    expect(projects[0]).toMatchObject({ name: 'Shop', owner: 'first@example.com', members: 3 });

    const now = Date.now();
    await db.user.createMany({
      data: Array.from({ length: INSTANCE_PAGE_SIZE + 5 }, (_, i) => ({
        id: `bulk-${i}`,
        email: `bulk-${i}@example.com`,
        name: `Bulk ${i}`,
        createdAt: new Date(now + 60_000 + i),
      })),
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.instance.users({ cursor });
      expect(page.users.length).toBeLessThanOrEqual(INSTANCE_PAGE_SIZE);
      seen.push(...page.users.map((u) => u.email));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(`bulk-${INSTANCE_PAGE_SIZE + 4}@example.com`);
    expect(seen.at(-1)).toBe(`bulk-${INSTANCE_PAGE_SIZE + 4}@example.com`);
  });

  it('disabling an account ends its sessions at once and refuses its sign-in; enabling lets it back', async () => {
    const admin = await callerFor('first@example.com');
    const { cookie } = await signIn('anyone@example.com');
    expect((await sessionOf(cookie))?.user.email).toBe('anyone@example.com');
    const anyone = await db.user.findUniqueOrThrow({ where: { email: 'anyone@example.com' } });

    await admin.instance.setDisabled({ userId: anyone.id, disabled: true });
    expect(await sessionOf(cookie)).toBeNull();
    expect(await signIn('anyone@example.com')).toMatchObject({
      status: 403,
      body: { code: 'ACCOUNT_DISABLED' },
    });
    expect((await admin.instance.users({})).users.find((u) => u.id === anyone.id)?.disabledAt).toBeInstanceOf(
      Date,
    );

    await admin.instance.setDisabled({ userId: anyone.id, disabled: false });
    expect((await signIn('anyone@example.com')).status).toBe(200);
  });

  it('keeps an admin: nobody disables or demotes themselves, and the last active admin stays', async () => {
    const admin = await callerFor('first@example.com');
    const first = await db.user.findUniqueOrThrow({ where: { email: 'first@example.com' } });
    const nora = await db.user.findUniqueOrThrow({ where: { email: 'nora@example.com' } });
    await expect(admin.instance.setDisabled({ userId: first.id, disabled: true })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'You cannot disable your own account.',
    });
    await expect(admin.instance.setAdmin({ userId: first.id, admin: false })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // Another admin can be made, and can then demote the first one.
    await admin.instance.setAdmin({ userId: nora.id, admin: true });
    expect(await (await callerFor('nora@example.com')).instance.viewer()).toEqual({ admin: true });
    // The rule under the check: taking the last active admin's role is refused, whoever asks.
    await setUserAdmin(db, first.id, nora.id, false);
    await expect(setUserAdmin(db, nora.id, first.id, false)).rejects.toMatchObject({ code: 'conflict' });
    expect((await db.user.findUniqueOrThrow({ where: { id: first.id } })).instanceRole).toBe('admin');
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { password, signUp } from './helpers';

// An instance of its own (a fresh data directory), so its first account is this spec's admin and
// closing sign-up leaves the other specs' server open. Needs the build the browser tests use.
const port = Number(process.env.E2E_PORT ?? 3100) + 8;
const base = `http://127.0.0.1:${port}`;
test.use({ baseURL: base });
test.describe.configure({ mode: 'serial', timeout: 240_000 });

let server: ChildProcess | undefined;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-instance-e2e-'));
  const { DATABASE_URL: _, BLOCKBOT_SIGNUP: __, ...inherited } = process.env;
  let output = '';
  server = spawn('./node_modules/.bin/next', ['start', '-H', '127.0.0.1', '-p', String(port)], {
    env: {
      ...inherited,
      BLOCKBOT_DATA_DIR: dataDir,
      BLOCKBOT_BASE_URL: base,
      BLOCKBOT_AUTH_RATE_LIMIT: 'off',
      PORT: String(port),
    },
  });
  server.stdout?.on('data', (d) => {
    output += d;
  });
  server.stderr?.on('data', (d) => {
    output += d;
  });
  await expect
    .poll(
      async () => {
        if (server?.exitCode !== null) throw new Error(`next start exited:\n${output}`);
        return fetch(`${base}/sign-in`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeout: 180_000 },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A browser of someone else's, on this instance. */
async function stranger(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: base });
  return context.newPage();
}

let admin: Page;
let member: Page;
let projectPath: string;

test('the first account is the instance admin and opens the instance page', async ({ browser }) => {
  admin = await stranger(browser);
  await signUp(admin, 'root@example.com');
  projectPath = new URL(admin.url()).pathname;
  await admin.getByRole('link', { name: 'Instance' }).click();
  await expect(admin.getByRole('heading', { name: 'Instance' })).toBeVisible();
  const row = admin.locator('[data-testid="instance-user"][data-email="root@example.com"]');
  await expect(row).toContainText('admin');
  await expect(row).toContainText('you');
  await expect(admin.getByTestId('instance-project')).toHaveCount(1);
  // A fresh embedded install is open.
  await expect(admin.getByRole('radio', { name: /^Open/ })).toBeChecked();
});

test('a second account is no admin: no link, and the page refuses it', async ({ browser }) => {
  member = await stranger(browser);
  await signUp(member, 'member@example.com');
  await expect(member.getByTestId('user-email')).toHaveText('member@example.com');
  await expect(member.getByRole('link', { name: 'Instance' })).toHaveCount(0);
  await member.goto('/instance');
  await expect(member.getByText("Only this instance's admins can open this page.")).toBeVisible();
  await expect(member.getByTestId('instance-user')).toHaveCount(0);
});

test('closed: a new visitor sees why there is no form, and the server refuses a sign-up anyway', async ({
  browser,
}) => {
  await admin.goto('/instance');
  await admin.getByRole('radio', { name: /^Closed/ }).check();
  await admin.reload();
  await expect(admin.getByRole('radio', { name: /^Closed/ })).toBeChecked();

  const visitor = await stranger(browser);
  await visitor.goto('/sign-up');
  await expect(visitor.getByTestId('sign-up-refused')).toHaveText(
    'Sign-up is closed on this instance. Ask its administrator for an account.',
  );
  await expect(visitor.getByLabel('Password')).toHaveCount(0);
  // Sign-in offers no way to an account it would not make.
  await visitor.goto('/sign-in');
  await expect(visitor.getByLabel('Password')).toBeVisible();
  await expect(visitor.getByRole('link', { name: 'Create an account' })).toHaveCount(0);
  await expect(visitor.getByText('No account? Ask the administrator of this instance')).toBeVisible();
  const direct = await visitor.request.post('/api/auth/sign-up/email', {
    headers: { origin: base },
    data: { email: 'sneak@example.com', password, name: 'Sneak' },
  });
  expect(direct.status()).toBe(403);
  expect((await direct.json()).code).toBe('SIGN_UP_CLOSED');
  await visitor.context().close();
});

test('invite-only: refused without a link, allowed through an invite link', async ({ browser }) => {
  await admin.goto('/instance');
  await admin.getByRole('radio', { name: /^Invite only/ }).check();
  await admin.reload();
  await expect(admin.getByRole('radio', { name: /^Invite only/ })).toBeChecked();

  const visitor = await stranger(browser);
  await visitor.goto('/sign-up');
  await expect(visitor.getByTestId('sign-up-refused')).toContainText('by invitation only');
  await expect(visitor.getByRole('link', { name: 'Sign in' })).toBeVisible();

  await admin.goto(`${projectPath}/team`);
  await admin.getByLabel('E-mail', { exact: true }).fill('guest@example.com');
  await admin.getByRole('button', { name: 'Invite' }).click();
  const link = await admin.getByTestId('invite-link-value').textContent();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);

  await visitor.goto(link as string);
  await expect(visitor.getByLabel('E-mail')).toHaveValue('guest@example.com');
  await visitor.getByLabel('Name').fill('Guest');
  await visitor.getByLabel('Password').fill(password);
  await visitor.getByRole('button', { name: 'Sign up' }).click();
  await expect(visitor).toHaveURL(new RegExp(`${projectPath}$`));
  await visitor.context().close();
});

test('a disabled account is signed out at once and cannot sign in', async () => {
  await member.goto('/projects');
  await expect(member.getByTestId('user-email')).toHaveText('member@example.com');

  await admin.goto('/instance');
  const row = admin.locator('[data-testid="instance-user"][data-email="member@example.com"]');
  admin.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');

  await member.reload();
  await expect(member).toHaveURL(/\/sign-in$/);
  await member.getByLabel('E-mail').fill('member@example.com');
  await member.getByLabel('Password').fill(password);
  await member.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    member.getByText("This account has been disabled by the instance's administrator."),
  ).toBeVisible();
  await expect(member).toHaveURL(/\/sign-in$/);

  // Enabled again, the account signs in.
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row).not.toContainText('disabled');
  await member.getByRole('button', { name: 'Sign in' }).click();
  await expect(member).toHaveURL(/\/projects/);
});

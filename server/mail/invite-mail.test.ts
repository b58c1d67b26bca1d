import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getEnv, resetEnvCache } from '@/server/config/env';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createCaller } from '@/server/trpc/root';
import { signedInCaller } from '@/server/trpc/testing/signed-in';

/** A mail server on 127.0.0.1 that speaks SMTP with a login and keeps what it receives. */
interface Received {
  from: string;
  to: string[];
  raw: string;
}
let tdb: TestDatabase;
let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
let refuseData = false;

beforeAll(async () => {
  tdb = await createTestDatabase();
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') return callback(null, { user: 'mailer' });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuseData) return callback(new Error('Mailbox full'));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  delete process.env.BLOCKBOT_SMTP_URL;
  delete process.env.BLOCKBOT_MAIL_FROM;
  delete process.env.BLOCKBOT_BASE_URL;
  resetEnvCache();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await tdb?.close();
});
afterEach(() => {
  refuseData = false;
});

function configure(env: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

const signedIn = (email: string) => signedInCaller(tdb.prisma, email);

/** The text part of a received message, its quoted-printable soft line breaks and escapes undone. */
const bodyText = (raw: string) =>
  raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe('invites by e-mail', () => {
  it('mails the link through the configured SMTP server, and the link joins the project', async () => {
    configure({
      BLOCKBOT_SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      BLOCKBOT_MAIL_FROM: 'Blockbot <bot@blockbot.test>',
      BLOCKBOT_BASE_URL: 'https://bots.example.com',
    });
    const owner = await signedIn('mail-owner@example.com');
    const { id: projectId } = await owner.project.create({
      name: 'Mail shop',
      timeZone: 'UTC',
      withDemoBot: false,
    });
    const result = await owner.team.invite({ projectId, email: 'ivy@example.com', role: 'admin' });
    // Mailed: the link is not shown to the manager at all.
    expect(result.invite).toMatchObject({ mailed: true, link: null, mailError: null });

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail).toMatchObject({ from: 'bot@blockbot.test', to: ['ivy@example.com'] });
    expect(mail.raw).toMatch(/^Subject: You are invited to Mail shop on Blockbot\r?$/m);
    const text = bodyText(mail.raw);
    expect(text).toContain('join the project "Mail shop" on Blockbot as an admin');
    const link = text.match(/https:\/\/bots\.example\.com\/invite\/[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeDefined();

    // Following the link: the invite page reads it, and the invited person accepts it.
    const token = new URL(link as string).pathname.split('/').pop() as string;
    const anonymous = createCaller({ db: tdb.prisma, session: null });
    expect(await anonymous.team.describeInvite({ token })).toMatchObject({
      state: 'valid',
      projectName: 'Mail shop',
      email: 'ivy@example.com',
      role: 'admin',
    });
    const ivy = await signedIn('ivy@example.com');
    expect(await ivy.team.acceptInvite({ token })).toEqual({ projectId });
    expect((await ivy.project.get({ projectId })).role).toBe('admin');
  });

  it('keeps the invite and shows the link when the mail server refuses the message', async () => {
    configure({
      BLOCKBOT_SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      BLOCKBOT_MAIL_FROM: 'bot@blockbot.test',
    });
    refuseData = true;
    const owner = await signedIn('refused-owner@example.com');
    const { id: projectId } = await owner.project.create({
      name: 'Refused',
      timeZone: 'UTC',
      withDemoBot: false,
    });
    const result = await owner.team.invite({ projectId, email: 'rex@example.com', role: 'operator' });
    expect(result.invite.mailed).toBe(false);
    expect(result.invite.mailError).toMatch(
      /^The mail server 127\.0\.0\.1:\d+ did not take the message: .*Mailbox full/,
    );
    expect(result.invite.mailError).not.toContain('s3cret');
    expect(result.invite.link).toMatch(/\/invite\/[A-Za-z0-9_-]+$/);
    expect((await owner.team.list({ projectId })).members.map((m) => m.email)).toContain('rex@example.com');

    // A wrong password is a refusal too, and its message carries no credentials.
    configure({ BLOCKBOT_SMTP_URL: `smtp://mailer:wrong-pass@127.0.0.1:${port}` });
    refuseData = false;
    const again = await owner.team.reinvite({ projectId, memberId: result.member.id });
    expect(again.invite).toMatchObject({ mailed: false, link: expect.stringContaining('/invite/') });
    expect(again.invite.mailError).not.toContain('wrong-pass');
  });

  it('validates the mail settings, naming the variable', () => {
    configure({ BLOCKBOT_SMTP_URL: 'http://mail.example.com', BLOCKBOT_MAIL_FROM: 'bot@example.com' });
    expect(() => getEnv()).toThrow(/BLOCKBOT_SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    configure({ BLOCKBOT_SMTP_URL: 'smtp://mail.example.com:587', BLOCKBOT_MAIL_FROM: undefined });
    expect(() => getEnv()).toThrow(/BLOCKBOT_MAIL_FROM: is required when BLOCKBOT_SMTP_URL is set/);
    configure({ BLOCKBOT_MAIL_FROM: 'not an address' });
    expect(() => getEnv()).toThrow(/BLOCKBOT_MAIL_FROM: must be an address/);
    configure({ BLOCKBOT_MAIL_FROM: 'Blockbot <bot@example.com>' });
    expect(getEnv().BLOCKBOT_SMTP_URL).toBe('smtp://mail.example.com:587');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { assignClient } from '@/server/contacts/assignment';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createCaller } from './root';
import { signedInCaller } from './testing/signed-in';

let tdb: TestDatabase;
beforeAll(async () => {
  delete process.env.BLOCKBOT_SMTP_URL;
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

const signedIn = (email: string) => signedInCaller(tdb.prisma, email);

const tokenOf = (link: string | null) => {
  expect(link).toMatch(/^http:\/\/localhost:\d+\/invite\/[A-Za-z0-9_-]+$/);
  return (link as string).split('/invite/')[1];
};

/** A project of `owner` with a member of each role who has joined through an invite link. */
async function projectWithTeam(prefix: string) {
  const owner = await signedIn(`${prefix}-owner@example.com`);
  const project = await owner.project.create({ name: `${prefix} shop`, timeZone: 'UTC', withDemoBot: false });
  const projectId = project.id;
  const join = async (role: 'admin' | 'operator' | 'owner') => {
    const email = `${prefix}-${role}${Math.random().toString(36).slice(2, 6)}@example.com`;
    const { invite, member } = await owner.team.invite({ projectId, email, role });
    const caller = await signedIn(email);
    await caller.team.acceptInvite({ token: tokenOf(invite.link) });
    return { caller, memberId: member.id, email };
  };
  const ownerId = (await tdb.prisma.projectMember.findFirstOrThrow({ where: { projectId, role: 'owner' } }))
    .id;
  return { owner, ownerId, projectId, join };
}

describe('inviting members', () => {
  it('invites by e-mail with a link shown once, and the person joins with it once', async () => {
    const { owner, projectId } = await projectWithTeam('inv');
    const result = await owner.team.invite({
      projectId,
      email: '  Nora@Example.com ',
      name: 'Nora',
      role: 'operator',
    });
    expect(result).toMatchObject({
      member: { email: 'nora@example.com', role: 'operator' },
      invite: { mailed: false, mailError: null },
    });
    const token = tokenOf(result.invite.link);
    expect(result.invite.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    // Only the hash is stored.
    const stored = await tdb.prisma.projectInvite.findFirstOrThrow({ where: { memberId: result.member.id } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.tokenHash).not.toContain(token);

    const { members } = await owner.team.list({ projectId });
    expect(members.find((m) => m.email === 'nora@example.com')).toMatchObject({
      name: 'Nora',
      joined: false,
      active: true,
      inviteExpiresAt: stored.expiresAt,
    });

    const anonymous = createCaller({ db: tdb.prisma, session: null });
    expect(await anonymous.team.describeInvite({ token })).toEqual({
      state: 'valid',
      projectName: 'inv shop',
      email: 'nora@example.com',
      role: 'operator',
      hasAccount: false,
    });
    await expect(anonymous.team.acceptInvite({ token })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    // Signing up with the invited address alone joins nothing: the link does.
    const nora = await signedIn('nora@example.com');
    expect(await nora.project.list()).toEqual([]);
    // Another account cannot use Nora's link.
    const mallory = await signedIn('mallory@example.com');
    await expect(mallory.team.acceptInvite({ token })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('This invite is for nora@example.com'),
    });
    expect(await nora.team.acceptInvite({ token })).toEqual({ projectId });
    expect((await nora.project.get({ projectId })).role).toBe('operator');
    expect(
      (await owner.team.list({ projectId })).members.find((m) => m.email === 'nora@example.com'),
    ).toMatchObject({
      joined: true,
      joinedAt: expect.any(Date),
      inviteExpiresAt: null,
    });

    // Single use.
    expect(await anonymous.team.describeInvite({ token })).toEqual({ state: 'used' });
    await expect(nora.team.acceptInvite({ token })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('already used'),
    });
    expect(await anonymous.team.describeInvite({ token: 'no-such-token-at-all' })).toEqual({
      state: 'unknown',
    });
    expect(await anonymous.team.describeInvite({ token: '../../etc' })).toEqual({ state: 'unknown' });
  });

  it('refuses an invite to an address already a member, naming it', async () => {
    const { owner, projectId, join } = await projectWithTeam('dup');
    const { email } = await join('operator');
    await expect(
      owner.team.invite({ projectId, email: email.toUpperCase(), role: 'admin' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `${email} is already a member of this project.`,
    });
    await owner.team.invite({ projectId, email: 'pending@example.com', role: 'operator' });
    await expect(
      owner.team.invite({ projectId, email: 'pending@example.com', role: 'operator' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'pending@example.com is already a member of this project (invited, not joined yet).',
    });
    await expect(
      owner.team.invite({ projectId, email: 'not an address', role: 'operator' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('email'),
    });
    expect(await tdb.prisma.projectMember.count({ where: { projectId } })).toBe(3);
  });

  it('refuses expired, replaced and withdrawn links with a clear reason', async () => {
    const { owner, projectId } = await projectWithTeam('exp');
    const anonymous = createCaller({ db: tdb.prisma, session: null });
    const late = await owner.team.invite({ projectId, email: 'late@example.com', role: 'operator' });
    await tdb.prisma.projectInvite.updateMany({
      where: { memberId: late.member.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const lateToken = tokenOf(late.invite.link);
    expect(await anonymous.team.describeInvite({ token: lateToken })).toEqual({ state: 'expired' });
    const lateUser = await signedIn('late@example.com');
    await expect(lateUser.team.acceptInvite({ token: lateToken })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('expired'),
    });
    // A new link replaces the old one, which then reads as withdrawn.
    const again = await owner.team.reinvite({ projectId, memberId: late.member.id });
    expect(await anonymous.team.describeInvite({ token: lateToken })).toEqual({ state: 'revoked' });
    expect(await lateUser.team.acceptInvite({ token: tokenOf(again.invite.link) })).toEqual({ projectId });
    await expect(owner.team.reinvite({ projectId, memberId: late.member.id })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'late@example.com has already joined the project.',
    });

    // Removing a pending member withdraws their link.
    const gone = await owner.team.invite({ projectId, email: 'gone@example.com', role: 'operator' });
    await owner.team.remove({ projectId, memberId: gone.member.id });
    const goneToken = tokenOf(gone.invite.link);
    expect(await anonymous.team.describeInvite({ token: goneToken })).toEqual({ state: 'revoked' });
    await expect(
      (await signedIn('gone@example.com')).team.acceptInvite({ token: goneToken }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('withdrawn'),
    });
  });
});

describe('who may change whom', () => {
  it('lets admins manage operators only, and owners everyone', async () => {
    const { owner, ownerId, projectId, join } = await projectWithTeam('roles');
    const admin = await join('admin');
    const otherAdmin = await join('admin');
    const operator = await join('operator');
    const a = admin.caller;

    for (const role of ['admin', 'owner'] as const) {
      await expect(
        a.team.invite({ projectId, email: `new-${role}@example.com`, role }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: `Only an owner can invite an ${role}; invite an operator, or ask an owner.`,
      });
    }
    await expect(
      a.team.changeRole({ projectId, memberId: operator.memberId, role: 'admin' }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only an owner can make someone an admin.',
    });
    await expect(
      a.team.changeRole({ projectId, memberId: otherAdmin.memberId, role: 'operator' }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: `Only an owner can change or remove an admin (${otherAdmin.email}).`,
    });
    await expect(a.team.remove({ projectId, memberId: ownerId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(a.team.setActive({ projectId, memberId: ownerId, active: false })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const members = await tdb.prisma.projectMember.findMany({ where: { projectId }, orderBy: { id: 'asc' } });
    expect(members.map((m) => [m.role, m.active])).toEqual([
      ['owner', true],
      ['admin', true],
      ['admin', true],
      ['operator', true],
    ]);

    // An admin invites operators, and pauses or removes them.
    expect((await a.team.invite({ projectId, email: 'op2@example.com', role: 'operator' })).member.role).toBe(
      'operator',
    );
    await a.team.setActive({ projectId, memberId: operator.memberId, active: false });
    await expect(operator.caller.project.get({ projectId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await operator.caller.project.list()).toEqual([]);
    await a.team.setActive({ projectId, memberId: operator.memberId, active: true });
    expect((await operator.caller.project.get({ projectId })).role).toBe('operator');

    // The owner promotes and demotes.
    await owner.team.changeRole({ projectId, memberId: operator.memberId, role: 'admin' });
    expect((await operator.caller.project.get({ projectId })).role).toBe('admin');
    await owner.team.remove({ projectId, memberId: otherAdmin.memberId });
    await expect(otherAdmin.caller.project.get({ projectId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps the last owner: not removed, demoted or paused, not even by themselves', async () => {
    const { owner, ownerId, projectId, join } = await projectWithTeam('last');
    const last = "last-owner@example.com is the project's last owner: make another member an owner first.";
    await expect(owner.team.remove({ projectId, memberId: ownerId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: last,
    });
    await expect(
      owner.team.changeRole({ projectId, memberId: ownerId, role: 'admin' }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: last,
    });
    await expect(owner.team.setActive({ projectId, memberId: ownerId, active: false })).rejects.toMatchObject(
      {
        code: 'FORBIDDEN',
        message: last,
      },
    );
    // An invited owner who has not joined yet does not count.
    await owner.team.invite({ projectId, email: 'future-owner@example.com', role: 'owner' });
    await expect(owner.team.remove({ projectId, memberId: ownerId })).rejects.toMatchObject({
      message: last,
    });

    const second = await join('owner');
    await owner.team.changeRole({ projectId, memberId: ownerId, role: 'admin' });
    expect((await owner.project.get({ projectId })).role).toBe('admin');
    await expect(second.caller.team.remove({ projectId, memberId: second.memberId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('last owner'),
    });
    // Two owners stepping down at once: the team lock lets one through, never both.
    await second.caller.team.changeRole({ projectId, memberId: ownerId, role: 'owner' });
    const both = await Promise.allSettled([
      owner.team.changeRole({ projectId, memberId: ownerId, role: 'admin' }),
      second.caller.team.changeRole({ projectId, memberId: second.memberId, role: 'admin' }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      await tdb.prisma.projectMember.count({ where: { projectId, role: 'owner', userId: { not: null } } }),
    ).toBe(1);
  });
});

describe("operators' limits and project isolation", () => {
  it('refuses every managing procedure to an operator with FORBIDDEN and changes nothing', async () => {
    const { owner, ownerId, projectId, join } = await projectWithTeam('ops');
    const key = await owner.apiKey.create({ projectId, name: 'crm', canDeleteClients: false });
    const channel = await tdb.prisma.channel.create({
      data: { projectId, kind: 'tg', clientType: 1, name: 'bot' },
    });
    const pending = await owner.team.invite({
      projectId,
      email: 'pending-ops@example.com',
      role: 'operator',
    });
    const client = await tdb.prisma.client.create({
      data: { projectId, platformId: 'ops-1', clientType: 1 },
    });
    const { caller: otto, memberId: ottoId } = await join('operator');
    const schema = { format: BOT_SCHEMA_FORMAT, blocks: [{ id: 1, kind: 'start', text: 'hi' }], arrows: [] };

    const snapshot = async () => ({
      project: await tdb.prisma.project.findUniqueOrThrow({ where: { id: projectId } }),
      keys: await tdb.prisma.apiKey.findMany({ where: { projectId }, orderBy: { id: 'asc' } }),
      members: await tdb.prisma.projectMember.findMany({ where: { projectId }, orderBy: { id: 'asc' } }),
      invites: await tdb.prisma.projectInvite.findMany({ where: { projectId }, orderBy: { id: 'asc' } }),
      blocks: await tdb.prisma.block.count({ where: { projectId } }),
      channels: await tdb.prisma.channel.findMany({ where: { projectId }, orderBy: { id: 'asc' } }),
      clients: await tdb.prisma.client.count({ where: { projectId } }),
    });
    const before = await snapshot();
    const { revision } = await otto.botSchema.get({ projectId });

    const managing: [string, () => Promise<unknown>][] = [
      ['project.rename', () => otto.project.rename({ projectId, name: 'mine' })],
      [
        'project.updateSettings',
        () => otto.project.updateSettings({ projectId, webhookUrl: 'https://evil.example/h' }),
      ],
      ['project.rotateWebhookSecret', () => otto.project.rotateWebhookSecret({ projectId })],
      ['project.delete', () => otto.project.delete({ projectId })],
      ['apiKey.list', () => otto.apiKey.list({ projectId })],
      ['apiKey.create', () => otto.apiKey.create({ projectId, name: 'k', canDeleteClients: true })],
      ['apiKey.revoke', () => otto.apiKey.revoke({ projectId, keyId: key.id })],
      ['botSchema.save', () => otto.botSchema.save({ projectId, schema, expectedRevision: revision })],
      ['botSchema.import', () => otto.botSchema.import({ projectId, json: JSON.stringify(schema) })],
      [
        'botSchema.checkImport',
        () => otto.botSchema.checkImport({ projectId, json: JSON.stringify(schema) }),
      ],
      ['requestTest.run', () => otto.requestTest.run({ projectId, request: { url: 'https://example.com' } })],
      [
        'channels.connectTg',
        () =>
          otto.channels.connect({ kind: 'tg', projectId, token: '123456:ABCDEFGHIJKLMNOP', mode: 'polling' }),
      ],
      ['channels.createWidget', () => otto.channels.connect({ kind: 'widget', projectId })],
      // The role is checked before the settings are read: any settings are refused alike.
      [
        'channels.updateWidget',
        () =>
          otto.channels.update({ kind: 'widget', projectId, channelId: channel.id, settings: {} as never }),
      ],
      ['clients.delete', () => otto.clients.delete({ projectId, clientId: client.id })],
      ['channels.disconnect', () => otto.channels.disconnect({ projectId, channelId: channel.id })],
      ['team.list', () => otto.team.list({ projectId })],
      ['team.invite', () => otto.team.invite({ projectId, email: 'friend@example.com', role: 'operator' })],
      ['team.reinvite', () => otto.team.reinvite({ projectId, memberId: pending.member.id })],
      ['team.changeRole', () => otto.team.changeRole({ projectId, memberId: ottoId, role: 'admin' })],
      ['team.setActive', () => otto.team.setActive({ projectId, memberId: ownerId, active: false })],
      ['team.remove', () => otto.team.remove({ projectId, memberId: ownerId })],
    ];
    for (const [name, call] of managing) {
      await expect(call(), name).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await snapshot()).toEqual(before);
    // What operators do: see the bot, export it, use the simulator's state, see the channels.
    expect((await otto.botSchema.export({ projectId })).json).toContain('"format"');
    expect(await otto.channels.list({ projectId })).toHaveLength(before.channels.length);
  });

  it("keeps one project's members invisible to another's managers", async () => {
    const a = await projectWithTeam('iso-a');
    const b = await projectWithTeam('iso-b');
    const aOperator = await a.join('operator');
    const calls = [
      () => b.owner.team.list({ projectId: a.projectId }),
      () => b.owner.team.remove({ projectId: a.projectId, memberId: aOperator.memberId }),
      () => b.owner.team.invite({ projectId: a.projectId, email: 'x@example.com', role: 'operator' }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // A member id of project A named in project B's call is not found there.
    for (const call of [
      () => b.owner.team.remove({ projectId: b.projectId, memberId: aOperator.memberId }),
      () => b.owner.team.changeRole({ projectId: b.projectId, memberId: aOperator.memberId, role: 'admin' }),
      () => b.owner.team.setActive({ projectId: b.projectId, memberId: aOperator.memberId, active: false }),
      () => b.owner.team.reinvite({ projectId: b.projectId, memberId: aOperator.memberId }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    const bList = await b.owner.team.list({ projectId: b.projectId });
    expect(bList.members.map((m) => m.email)).toEqual(['iso-b-owner@example.com']);
    expect(
      await tdb.prisma.projectMember.findUniqueOrThrow({ where: { id: aOperator.memberId } }),
    ).toMatchObject({
      role: 'operator',
      active: true,
    });
  });

  it("skips a member paused in the Team tab in assign_to_user's round-robin", async () => {
    const { owner, ownerId, projectId, join } = await projectWithTeam('rr');
    const ann = await join('operator');
    const bob = await join('operator');
    await owner.team.setActive({ projectId, memberId: bob.memberId, active: false });
    const picked = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const client = await tdb.prisma.client.create({
        data: { projectId, platformId: `rr-${i}`, clientType: 1 },
      });
      picked.add((await assignClient(tdb.prisma, projectId, client.id)).memberId);
    }
    expect([...picked].sort()).toEqual([ownerId, ann.memberId].sort());
  });
});

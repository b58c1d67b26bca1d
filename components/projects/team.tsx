'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import {
  canManageProject,
  MEMBER_ROLES,
  type MemberChange,
  type MemberRole,
  refuseMemberChange,
} from '@/lib/team/member-rules';

const ROLE_LABELS: Record<MemberRole, string> = { owner: 'Owner', admin: 'Admin', operator: 'Operator' };
const date = (d: Date | string) => new Date(d).toLocaleDateString();
const dateTime = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : 'never');

interface Issued {
  email: string;
  mailed: boolean;
  link: string | null;
  mailError: string | null;
}

/** The Team tab: the members, inviting by e-mail, roles, pausing and removing (owners and admins). */
export function Team({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Operators are told at once that the team is not theirs, without a refused call first.
  const project = useQuery(trpc.project.get.queryOptions({ projectId }));
  const manager = project.data ? canManageProject(project.data.role) : undefined;
  const team = useQuery({ ...trpc.team.list.queryOptions({ projectId }), enabled: manager === true });
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.team.list.queryKey({ projectId }) });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<MemberRole>('operator');
  const [issued, setIssued] = useState<Issued | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const onIssued = ({ member, invite }: { member: { email: string }; invite: Omit<Issued, 'email'> }) => {
    setIssued({ email: member.email, ...invite });
    return invalidate();
  };
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: (result) => {
        setEmail('');
        setName('');
        setRole('operator');
        return onIssued(result);
      },
    }),
  );
  const action = {
    onSuccess: () => invalidate(),
    onError: (e: { message: string }) => setActionError(e.message),
  };
  const reinvite = useMutation(
    trpc.team.reinvite.mutationOptions({ onSuccess: onIssued, onError: action.onError }),
  );
  const changeRole = useMutation(trpc.team.changeRole.mutationOptions(action));
  const setActive = useMutation(trpc.team.setActive.mutationOptions(action));
  const remove = useMutation(trpc.team.remove.mutationOptions(action));

  if (manager === false)
    return (
      <div className="p-6">
        <Alert tone="info">
          You are an operator of this project: only its owners and admins invite, change and remove members.
        </Alert>
      </div>
    );
  const error = project.error ?? team.error;
  if (error)
    return (
      <div className="p-6">
        <Alert tone="error">{error.message}</Alert>
      </div>
    );
  if (!team.data) return <p className="p-6 text-sm text-slate-500">Loading the team…</p>;
  const { members, you } = team.data;
  const joinedOwners = members.filter((m) => m.role === 'owner' && m.active && m.joined);
  const refusal = (member: (typeof members)[number], change: MemberChange) =>
    refuseMemberChange(change, {
      actor: you.role,
      target: member,
      lastOwner: joinedOwners.length === 1 && joinedOwners[0].id === member.id,
    });

  function onInvite(event: FormEvent) {
    event.preventDefault();
    setIssued(null);
    setActionError(null);
    invite.mutate({ projectId, email, name, role });
  }
  const start = () => {
    setActionError(null);
    setIssued(null);
  };

  return (
    <main className="mx-auto max-w-5xl space-y-6 p-4 sm:p-6">
      <Card>
        <CardTitle description="The person gets a link that works once, for 7 days. Operators answer clients; admins and owners also edit the bot, settings, channels, API keys and the team.">
          Invite a member
        </CardTitle>
        <form
          className="grid gap-3 sm:grid-cols-[2fr_1.5fr_1fr_auto] sm:items-end"
          onSubmit={onInvite}
          noValidate
        >
          <Field id="invite-email" label="E-mail">
            <Input
              id="invite-email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="ann@example.com"
              autoComplete="off"
            />
          </Field>
          <Field id="invite-name" label="Name (optional)">
            <Input
              id="invite-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Ann"
            />
          </Field>
          <Field id="invite-role" label="Role">
            <Select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as MemberRole)}>
              {MEMBER_ROLES.map((r) => {
                const refused = refuseMemberChange(
                  { kind: 'invite', role: r },
                  { actor: you.role, target: null, lastOwner: false },
                );
                return (
                  <option key={r} value={r} disabled={refused !== null}>
                    {ROLE_LABELS[r]}
                    {refused ? ' (owners only)' : ''}
                  </option>
                );
              })}
            </Select>
          </Field>
          <Button type="submit" disabled={invite.isPending || !email.trim()}>
            Invite
          </Button>
        </form>
        {invite.error ? (
          <div className="mt-3">
            <Alert tone="error">{invite.error.message}</Alert>
          </div>
        ) : null}
        {issued ? <IssuedInvite issued={issued} /> : null}
      </Card>

      <Card>
        <CardTitle description="Paused members cannot open the project and get no clients from assign_to_user's round-robin.">
          Members
        </CardTitle>
        {actionError ? (
          <div className="mb-3">
            <Alert tone="error">{actionError}</Alert>
          </div>
        ) : null}
        {members.length === 1 ? (
          <p className="mb-3 text-sm text-slate-500">
            Only you so far. Invite the people who answer your clients: they will appear here.
          </p>
        ) : null}
        <div className="overflow-x-auto">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-1 pr-2">Name</th>
                <th className="pr-2">E-mail</th>
                <th className="pr-2">Role</th>
                <th className="pr-2">Active</th>
                <th className="pr-2">Joined</th>
                <th className="pr-2">Last assigned</th>
                <th />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {members.map((member) => {
                const isYou = member.id === you.memberId;
                const roleRefusals = MEMBER_ROLES.filter((r) => r !== member.role).map((r) =>
                  refusal(member, { kind: 'role', role: r }),
                );
                // The select is off when no other role may be given; its title says why.
                const roleRefusal = roleRefusals.every((r) => r !== null) ? roleRefusals[0] : null;
                const removeRefusal = refusal(member, { kind: 'remove' });
                const activeRefusal = refusal(member, { kind: 'active', active: !member.active });
                const expired =
                  member.inviteExpiresAt !== null && new Date(member.inviteExpiresAt) < new Date();
                return (
                  <tr key={member.id} data-testid="member-row" data-email={member.email}>
                    <td className="py-2 pr-2">
                      {member.name || <span className="text-slate-400">—</span>}
                      {isYou ? <Badge className="ml-1.5">you</Badge> : null}
                    </td>
                    <td className="pr-2 whitespace-nowrap">{member.email}</td>
                    <td className="pr-2">
                      <Select
                        aria-label={`Role of ${member.email}`}
                        className="h-8 w-32 disabled:bg-slate-50 disabled:text-slate-500"
                        value={member.role}
                        title={roleRefusal ?? undefined}
                        disabled={changeRole.isPending || roleRefusal !== null}
                        onChange={(e) => {
                          start();
                          changeRole.mutate({
                            projectId,
                            memberId: member.id,
                            role: e.target.value as MemberRole,
                          });
                        }}
                      >
                        {MEMBER_ROLES.map((r) => (
                          <option
                            key={r}
                            value={r}
                            disabled={
                              r !== member.role && refusal(member, { kind: 'role', role: r }) !== null
                            }
                          >
                            {ROLE_LABELS[r]}
                          </option>
                        ))}
                      </Select>
                    </td>
                    <td className="pr-2">
                      <label className="inline-flex items-center gap-1.5" title={activeRefusal ?? undefined}>
                        <input
                          type="checkbox"
                          checked={member.active}
                          disabled={setActive.isPending || activeRefusal !== null}
                          aria-label={`${member.email} is active`}
                          onChange={(e) => {
                            start();
                            setActive.mutate({ projectId, memberId: member.id, active: e.target.checked });
                          }}
                        />
                        <span className={member.active ? '' : 'text-slate-500'}>
                          {member.active ? 'active' : 'paused'}
                        </span>
                      </label>
                    </td>
                    <td className="pr-2 whitespace-nowrap">
                      {member.joinedAt ? (
                        date(member.joinedAt)
                      ) : (
                        <Badge className={expired ? 'bg-amber-100 text-amber-800' : undefined}>
                          {expired ? 'invite expired' : 'invited'}
                        </Badge>
                      )}
                    </td>
                    <td className="pr-2 whitespace-nowrap text-slate-600">
                      {dateTime(member.lastAssignedAt)}
                    </td>
                    <td className="space-x-1 text-right whitespace-nowrap">
                      {!member.joined ? (
                        <Button
                          variant="secondary"
                          size="sm"
                          disabled={reinvite.isPending || refusal(member, { kind: 'reinvite' }) !== null}
                          onClick={() => {
                            start();
                            reinvite.mutate({ projectId, memberId: member.id });
                          }}
                        >
                          New link
                        </Button>
                      ) : null}
                      <Button
                        variant="secondary"
                        size="sm"
                        title={removeRefusal ?? undefined}
                        disabled={remove.isPending || removeRefusal !== null}
                        onClick={() => {
                          const what = isYou
                            ? 'Leave this project? You will lose access to it at once.'
                            : `Remove ${member.email} from the project? Their clients become unassigned.`;
                          if (!confirm(what)) return;
                          start();
                          remove.mutate({ projectId, memberId: member.id });
                        }}
                      >
                        {isYou ? 'Leave' : 'Remove'}
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {joinedOwners.length === 1 ? (
          <p className="mt-3 text-xs text-slate-500">
            The project keeps at least one owner: make another member an owner before the last one steps down.
          </p>
        ) : null}
      </Card>
    </main>
  );
}

function IssuedInvite({ issued }: { issued: Issued }) {
  if (issued.mailed)
    return (
      <div className="mt-4">
        <Alert tone="success">
          Invite e-mailed to {issued.email}. The link in it works once, for 7 days.
        </Alert>
      </div>
    );
  return (
    <div
      className="mt-4 space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3"
      data-testid="invite-link"
    >
      {issued.mailError ? (
        <Alert tone="error">{issued.mailError}. Send the link yourself instead.</Alert>
      ) : null}
      <p className="text-sm text-emerald-900">
        Send this link to <strong>{issued.email}</strong>. It is shown only now, works once, for 7 days.
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 overflow-x-auto rounded bg-white px-2 py-1 text-sm"
          data-testid="invite-link-value"
        >
          {issued.link}
        </code>
        <CopyButton value={issued.link ?? ''} />
      </div>
    </div>
  );
}

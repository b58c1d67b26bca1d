'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { ShowMore } from '@/components/ui/show-more';

const date = (d: Date | string) => new Date(d).toLocaleDateString();

/** The instance's accounts, oldest first: disabling one signs it out at once. */
export function InstanceUsers({ viewerId }: { viewerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useInfiniteQuery(
    trpc.instance.users.infiniteQueryOptions(
      {},
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const refresh = () => queryClient.invalidateQueries(trpc.instance.users.pathFilter());
  const setDisabled = useMutation(trpc.instance.setDisabled.mutationOptions({ onSettled: refresh }));
  const setAdmin = useMutation(trpc.instance.setAdmin.mutationOptions({ onSettled: refresh }));
  const users = list.data?.pages.flatMap((page) => page.users) ?? [];
  const error = list.error ?? setDisabled.error ?? setAdmin.error;
  return (
    <Card>
      <CardTitle description="Everyone with an account here. A disabled account is signed out at once and cannot sign in until enabled again.">
        Accounts
      </CardTitle>
      {error ? (
        <div className="mb-3">
          <Alert tone="error">{error.message}</Alert>
        </div>
      ) : null}
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="text-xs text-slate-500 uppercase">
            <tr>
              <th className="py-1 pr-2">Name</th>
              <th className="pr-2">E-mail</th>
              <th className="pr-2">Projects</th>
              <th className="pr-2">Created</th>
              <th className="pr-2">Status</th>
              <th />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((user) => {
              const isYou = user.id === viewerId;
              const disabled = user.disabledAt !== null;
              return (
                <tr key={user.id} data-testid="instance-user" data-email={user.email}>
                  <td className="py-2 pr-2 whitespace-nowrap">
                    {user.name || <span className="text-slate-400">—</span>}
                    {isYou ? <Badge className="ml-1.5">you</Badge> : null}
                    {user.admin ? <Badge className="ml-1.5 bg-brand-50 text-brand-700">admin</Badge> : null}
                  </td>
                  <td className="pr-2 whitespace-nowrap">{user.email}</td>
                  <td className="pr-2">{user.projects}</td>
                  <td className="pr-2 whitespace-nowrap">{date(user.createdAt)}</td>
                  <td className="pr-2">
                    {disabled ? <Badge className="bg-red-50 text-red-700">disabled</Badge> : 'active'}
                  </td>
                  <td className="space-x-1 text-right whitespace-nowrap">
                    {isYou ? null : (
                      <>
                        <Button
                          variant="secondary"
                          size="sm"
                          disabled={setAdmin.isPending}
                          onClick={() => setAdmin.mutate({ userId: user.id, admin: !user.admin })}
                        >
                          {user.admin ? 'Remove admin' : 'Make admin'}
                        </Button>
                        <Button
                          variant={disabled ? 'secondary' : 'danger'}
                          size="sm"
                          disabled={setDisabled.isPending}
                          onClick={() => {
                            if (!disabled && !confirm(`Disable ${user.email}? They are signed out at once.`))
                              return;
                            setDisabled.mutate({ userId: user.id, disabled: !disabled });
                          }}
                        >
                          {disabled ? 'Enable' : 'Disable'}
                        </Button>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ShowMore list={list} label="Show more accounts" />
    </Card>
  );
}

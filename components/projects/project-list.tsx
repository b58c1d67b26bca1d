'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export function ProjectList() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const projects = useQuery(trpc.project.list.queryOptions());
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.project.create.mutationOptions({
      onSuccess: async (project) => {
        await queryClient.invalidateQueries({ queryKey: trpc.project.list.queryKey() });
        router.push(`/projects/${project.id}`);
      },
    }),
  );

  function onCreate(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' });
  }

  return (
    <>
      <Card>
        {projects.isPending ? <p className="text-sm text-slate-500">Loading…</p> : null}
        {projects.data?.length === 0 ? (
          <p className="text-sm text-slate-500">No projects yet: create one below.</p>
        ) : null}
        <ul className="divide-y divide-slate-100">
          {projects.data?.map((p) => (
            <li key={p.id} className="flex items-center justify-between py-2">
              <Link className="font-medium text-brand-700 hover:underline" href={`/projects/${p.id}`}>
                {p.name}
              </Link>
              <Badge>{p.plan}</Badge>
            </li>
          ))}
        </ul>
      </Card>
      <Card>
        <CardTitle>New project</CardTitle>
        <form className="flex items-end gap-3" onSubmit={onCreate}>
          <div className="flex-1">
            <Field id="new-project-name" label="Name">
              <Input
                id="new-project-name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={100}
              />
            </Field>
          </div>
          <Button type="submit" disabled={create.isPending}>
            Create project
          </Button>
        </form>
        {create.error ? (
          <div className="mt-3">
            <Alert tone="error">{create.error.message}</Alert>
          </div>
        ) : null}
      </Card>
    </>
  );
}

'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Card, CardTitle } from '@/components/ui/card';
import { ShowMore } from '@/components/ui/show-more';

const date = (d: Date | string) => new Date(d).toLocaleDateString();

/** Every project on the instance, newest first, with its owner and team size. */
export function InstanceProjects() {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.instance.projects.infiniteQueryOptions(
      {},
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const projects = list.data?.pages.flatMap((page) => page.projects) ?? [];
  return (
    <Card>
      <CardTitle description="Every project on this instance, newest first. Open one only if you are on its team.">
        Projects
      </CardTitle>
      {list.error ? <Alert tone="error">{list.error.message}</Alert> : null}
      {list.data && projects.length === 0 ? <p className="text-sm text-slate-500">No projects yet.</p> : null}
      {projects.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-1 pr-2">Name</th>
                <th className="pr-2">Owner</th>
                <th className="pr-2">Members</th>
                <th className="pr-2">Created</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {projects.map((project) => (
                <tr key={project.id} data-testid="instance-project">
                  <td className="py-2 pr-2">{project.name}</td>
                  <td className="pr-2 whitespace-nowrap">
                    {project.owner ?? <span className="text-slate-400">—</span>}
                  </td>
                  <td className="pr-2">{project.members}</td>
                  <td className="pr-2 whitespace-nowrap">{date(project.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <ShowMore list={list} label="Show more projects" />
    </Card>
  );
}

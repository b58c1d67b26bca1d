'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import type { Plan } from '@/lib/formula/plans';

/**
 * The project's plan (Settings, Plan), for the formula editor's and lint's warnings on calls it
 * does not allow; undefined until known (then nothing is said). The same query as the project's
 * other readers, so it is fetched once.
 */
export function useProjectPlan(projectId: number | null): Plan | undefined {
  const trpc = useTRPC();
  const project = useQuery({
    ...trpc.project.get.queryOptions({ projectId: projectId ?? 0 }),
    enabled: projectId !== null,
    staleTime: 60_000,
  });
  return project.data?.plan;
}

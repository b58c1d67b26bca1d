'use client';

import { useParams } from 'next/navigation';

/** The project of the page (`/projects/[projectId]/...`), for components deep in its tree. */
export function useProjectId(): number | null {
  const { projectId } = useParams<{ projectId?: string }>();
  const id = Number(projectId);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

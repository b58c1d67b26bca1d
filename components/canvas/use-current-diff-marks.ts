'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { type DiffMarks, diffMarksOf } from './diff-marks';

/**
 * A comparison marked on the canvas, kept current (docs/versions.md, "Comparing versions"): worked
 * out again when the draft is saved or a version is published, so the banner never describes a
 * state that is gone. The live version against the draft follows a publish to the new version.
 */
export function useCurrentDiffMarks(projectId: number, marks: DiffMarks | null): DiffMarks | null {
  const trpc = useTRPC();
  const state = useQuery(trpc.versions.state.queryOptions({ projectId })).data;
  const live = state?.published?.number ?? 0;
  const sides = marks?.sides;
  const from = sides?.followsLive ? live : (sides?.from ?? 0);
  const to = sides?.to ?? 'draft';
  const diff = useQuery({
    ...trpc.versions.diff.queryOptions({ projectId, from, to }),
    enabled: !!sides && !!state,
  });
  // A save makes a new draft: compare again (a publish refreshes every versions query already).
  const draftRevision = state?.draftRevision;
  const { refetch } = diff;
  useEffect(() => {
    if (draftRevision !== undefined && to === 'draft') void refetch();
  }, [draftRevision, to, refetch]);
  if (!marks || !sides || !diff.data || !state) return marks;
  const draftIsLive = !!state.published && !state.unpublishedChanges;
  return diffMarksOf(diff.data.diff, from, to, to === 'draft' || (draftIsLive && to === live));
}

/** The colours a CRM stage may have (docs/crm.md), and how the screens draw each one. */
export const STAGE_COLORS = [
  'slate',
  'blue',
  'sky',
  'teal',
  'green',
  'amber',
  'orange',
  'red',
  'pink',
  'violet',
] as const;
export type StageColor = (typeof STAGE_COLORS)[number];

/** Tailwind classes of each colour, written out so the build keeps them: a dot and a column's top edge. */
const CLASSES: Record<StageColor, { dot: string; edge: string }> = {
  slate: { dot: 'bg-slate-400', edge: 'border-t-slate-400' },
  blue: { dot: 'bg-blue-500', edge: 'border-t-blue-500' },
  sky: { dot: 'bg-sky-400', edge: 'border-t-sky-400' },
  teal: { dot: 'bg-teal-500', edge: 'border-t-teal-500' },
  green: { dot: 'bg-green-500', edge: 'border-t-green-500' },
  amber: { dot: 'bg-amber-400', edge: 'border-t-amber-400' },
  orange: { dot: 'bg-orange-500', edge: 'border-t-orange-500' },
  red: { dot: 'bg-red-500', edge: 'border-t-red-500' },
  pink: { dot: 'bg-pink-500', edge: 'border-t-pink-500' },
  violet: { dot: 'bg-violet-500', edge: 'border-t-violet-500' },
};

/** A stage's colour classes; an unknown or empty colour (stages made before colours) is slate. */
export function stageColorClasses(color: string) {
  return CLASSES[(STAGE_COLORS as readonly string[]).includes(color) ? (color as StageColor) : 'slate'];
}

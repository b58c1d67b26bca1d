import { describe, expect, it } from 'vitest';
import { withArrowKind } from '@/components/arrow-editor/arrow-editor';
import { arrowSchema } from '@/lib/schema';
import { validateArrow } from '@/lib/schema/validate';
import { moveItem } from './fields';
import { splitPlaceholders } from './message-text-field';

describe('editor helpers', () => {
  it('splits message text into plain parts and #{...} placeholders', () => {
    expect(splitPlaceholders('Hi #{name}, you owe #{sum}.')).toEqual([
      { text: 'Hi ', placeholder: false },
      { text: '#{name}', placeholder: true },
      { text: ', you owe ', placeholder: false },
      { text: '#{sum}', placeholder: true },
      { text: '.', placeholder: false },
    ]);
    expect(splitPlaceholders('typing #{na')).toEqual([
      { text: 'typing ', placeholder: false },
      { text: '#{na', placeholder: true },
    ]);
  });

  it('reorders list rows', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });

  it('changing an arrow kind gives it what the kind needs, and the result validates', () => {
    const arrow = arrowSchema.parse({ id: 1, from: 1, to: 2, kind: 'unconditional', collectInto: 'email' });
    const timer = withArrowKind(arrow, 'timer');
    expect(timer.timer).toEqual({ delay: 1, unit: 'minutes' });
    expect(validateArrow(timer).ok).toBe(true);
    const condition = withArrowKind({ ...timer, showAsButton: true }, 'condition');
    expect(condition.timer).toBeUndefined();
    expect(condition.condition).toEqual({ alternatives: '', match: 'exact', expression: '', ignore: '' });
    expect(condition.collectInto).toBe('email');
    expect(validateArrow(condition).ok).toBe(true);
    const back = withArrowKind({ ...condition, showAsButton: true }, 'unconditional');
    expect(back).not.toHaveProperty('condition');
    expect(back.showAsButton).toBe(false);
    const at = withArrowKind({ ...condition, showAsButton: true }, 'continue');
    expect(at).not.toHaveProperty('condition');
    expect(at).not.toHaveProperty('timer');
    expect(at.showAsButton).toBe(false);
    expect(validateArrow(at).ok).toBe(true);
  });
});

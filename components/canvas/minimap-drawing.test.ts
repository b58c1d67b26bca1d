import { describe, expect, it } from 'vitest';
import { minimapDrawing, splitMoving } from './minimap-drawing';

const colorOf = (node: { color: string }) => node.color;

describe('minimapDrawing', () => {
  it('draws each block as a rectangle in its colour’s path, with the bounds of them all', () => {
    const drawing = minimapDrawing(
      [
        { color: 'red', position: { x: 0, y: 0 }, measured: { width: 200, height: 80 } },
        { color: 'blue', position: { x: 300, y: -50 }, width: 240, height: 120 },
        { color: 'red', position: { x: 100, y: 400 }, initialWidth: 224, initialHeight: 96 },
      ],
      colorOf,
    );
    expect(drawing.paths).toEqual([
      { color: 'red', d: 'M0,0h200v80h-200zM100,400h224v96h-224z' },
      { color: 'blue', d: 'M300,-50h240v120h-240z' },
    ]);
    expect(drawing.bounds).toEqual({ x: 0, y: -50, width: 540, height: 546 });
  });

  it('takes the measured size over the set one, and leaves out a node with no size yet', () => {
    const drawing = minimapDrawing(
      [
        {
          color: 'red',
          position: { x: 10, y: 10 },
          width: 50,
          height: 50,
          measured: { width: 70, height: 30 },
        },
        { color: 'red', position: { x: 500, y: 500 } },
      ],
      colorOf,
    );
    expect(drawing.paths).toEqual([{ color: 'red', d: 'M10,10h70v30h-70z' }]);
    expect(drawing.bounds).toEqual({ x: 10, y: 10, width: 70, height: 30 });
  });

  it('has no paths and no bounds without nodes', () => {
    expect(minimapDrawing([], colorOf)).toEqual({ paths: [], bounds: null });
  });

  it('splits the dragged nodes from the still ones, keeping the still list while those nodes are the same', () => {
    const a = { color: 'red', position: { x: 0, y: 0 } };
    const b = { color: 'red', position: { x: 300, y: 0 } };
    const c = { color: 'red', position: { x: 600, y: 0 } };
    const first = splitMoving([a, b, c], []);
    expect(first).toEqual({ still: [a, b, c], moving: [] });

    // A drag frame: b moves (a new object, dragging), a and c are untouched.
    const dragged = { ...b, position: { x: 320, y: 10 }, dragging: true };
    const frame = splitMoving([a, dragged, c], first.still);
    expect(frame.moving).toEqual([dragged]);
    expect(frame.still).toEqual([a, c]);
    const next = splitMoving([a, { ...dragged, position: { x: 340, y: 20 } }, c], frame.still);
    expect(next.still).toBe(frame.still);

    // Another node changed meanwhile (say, renamed): a new still list.
    const renamed = { ...c, color: 'blue' };
    expect(splitMoving([a, dragged, renamed], frame.still).still).toEqual([a, renamed]);
    expect(splitMoving([a, dragged, renamed], frame.still).still).not.toBe(frame.still);
  });
});

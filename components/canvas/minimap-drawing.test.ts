import { describe, expect, it } from 'vitest';
import { minimapDrawing } from './minimap-drawing';

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
});

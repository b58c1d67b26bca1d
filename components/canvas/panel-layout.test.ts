import { describe, expect, it } from 'vitest';
import { clampWidth, PANEL_BOUNDS, parsePanelLayout } from './panel-layout';

const bounds = PANEL_BOUNDS.editor;

describe('panel layout', () => {
  it('starts at the initial width, open, when nothing readable is stored', () => {
    for (const text of [null, '', 'not json', '{"width":"wide"}', '[]', '{"width":400}'])
      expect(parsePanelLayout(text, bounds)).toEqual({ width: bounds.initial, collapsed: false });
  });

  it('reads what was stored, within the bounds', () => {
    expect(parsePanelLayout('{"width":400,"collapsed":true}', bounds)).toEqual({
      width: 400,
      collapsed: true,
    });
    expect(parsePanelLayout('{"width":5000,"collapsed":false}', bounds).width).toBe(bounds.max);
    expect(parsePanelLayout('{"width":10,"collapsed":false}', bounds).width).toBe(bounds.min);
  });

  it('keeps a dragged width within the bounds and leaves the canvas most of the window', () => {
    expect(clampWidth(100, bounds, 1440)).toBe(bounds.min);
    expect(clampWidth(500.4, bounds, 1440)).toBe(500);
    expect(clampWidth(900, bounds, 1440)).toBe(576);
    expect(clampWidth(900, bounds, 2560)).toBe(bounds.max);
    // A narrow window: never under the panel's least width.
    expect(clampWidth(400, bounds, 500)).toBe(bounds.min);
  });
});

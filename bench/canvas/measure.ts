import type { Page } from '@playwright/test';

/** React Flow's wrapper of a node, the same on the bare page and in the builder. */
export const nodeSelector = (id: string) => `.react-flow__node[data-id="${id}"]`;

export interface OpenFigures {
  /** The node is rendered, measured and inside the pane (fitted), and the edges are drawn. */
  shownMs: number;
  /** A real mouse click on that node has been handled: it shows as selected. */
  interactiveMs: number;
  /** Clicks it took (a missed one is repeated after 5 s). */
  clicks: number;
}

/**
 * Opens `url` in `page` and times both moments from the navigation's start
 * (`performance.now()` counts from it), each read at the first animation frame it holds.
 */
export async function timeOpen(page: Page, url: string, nodeId: string): Promise<OpenFigures> {
  await page.goto(url, { waitUntil: 'commit' });
  const selector = nodeSelector(nodeId);
  const shown = await page.waitForFunction(
    (selector) => {
      const node = document.querySelector(selector);
      const pane = document.querySelector('.react-flow__renderer');
      if (!node || !pane || !document.querySelector('.react-flow__edge')) return 0;
      if (getComputedStyle(node).visibility === 'hidden') return 0;
      const n = node.getBoundingClientRect();
      const p = pane.getBoundingClientRect();
      const inside =
        n.width > 0 && n.left >= p.left && n.right <= p.right && n.top >= p.top && n.bottom <= p.bottom;
      return inside ? performance.now() : 0;
    },
    selector,
    { polling: 'raf', timeout: 120_000 },
  );
  const shownMs = (await shown.jsonValue()) as number;
  // A click the page missed (still busy wiring things up) is repeated; the time counts.
  for (let attempt = 1; ; attempt++) {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`node ${nodeId} has no box`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const interactive = await page
      .waitForFunction(
        (selector) => document.querySelector(selector)?.classList.contains('selected') && performance.now(),
        selector,
        { polling: 'raf', timeout: 5_000 },
      )
      .catch((error) => {
        if (attempt === 10) throw error;
        return null;
      });
    if (interactive)
      return { shownMs, interactiveMs: (await interactive.jsonValue()) as number, clicks: attempt };
  }
}

export interface FrameFigures {
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  fps: number;
}

/** Figures of animation-frame intervals (ms). */
export function frameFigures(deltas: readonly number[]): FrameFigures {
  const sorted = [...deltas].sort((a, b) => a - b);
  const meanMs = deltas.reduce((sum, d) => sum + d, 0) / deltas.length;
  return {
    frames: deltas.length,
    meanMs,
    // No frames (every drag missed): NaN, printed as such.
    p95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN,
    maxMs: sorted.at(-1) ?? Number.NaN,
    fps: 1000 / meanMs,
  };
}

/**
 * Records each animation frame's time and how far the node's flow position (React Flow's inline
 * transform, read without forcing a layout) is from where it started. A string: tsx would wrap
 * a named function in a helper the page does not have.
 */
const recordFrames = (selector: string) => `(() => {
  const node = document.querySelector(${JSON.stringify(selector)});
  const x = () => Number(/translate\\(([-\\d.]+)px/.exec(node.style.transform)?.[1] ?? 0);
  const x0 = x();
  window.benchFrames = [];
  window.benchMoved = 0;
  window.benchRecording = true;
  const frame = (t) => {
    window.benchFrames.push(t);
    window.benchMoved = Math.max(window.benchMoved, Math.abs(x() - x0));
    if (window.benchRecording) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})()`;

/**
 * Drags the node with the mouse `distance` px towards the middle of the pane and back in `steps`
 * moves, each sent when the browser has taken the previous one, and returns the animation-frame
 * intervals (ms) seen meanwhile. Staying off the pane's edges keeps React Flow from panning. The
 * drag starts with a small move (React Flow takes the grip where its drag threshold is passed)
 * and ends there, so the node is dropped where it was and nothing is saved between samples.
 * Throws if the node did not follow the mouse.
 */
export async function dragFrames(page: Page, nodeId: string, distance = 200, steps = 120): Promise<number[]> {
  const box = await page.locator(nodeSelector(nodeId)).boundingBox();
  const pane = await page.locator('.react-flow__renderer').boundingBox();
  if (!box || !pane) throw new Error(`node ${nodeId} has no box`);
  const zoom = await zoomOf(page);
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const direction = start.x < pane.x + pane.width / 2 ? 1 : -1;
  const grip = { x: start.x + direction * 3, y: start.y };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(grip.x, grip.y);
  await page.evaluate(recordFrames(nodeSelector(nodeId)));
  for (let i = 1; i <= steps; i++) {
    const along = i <= steps / 2 ? i / (steps / 2) : (steps - i) / (steps / 2);
    await page.mouse.move(grip.x + direction * distance * along, grip.y + along * 20);
  }
  const { timestamps, moved } = await page.evaluate(() => {
    const w = window as unknown as { benchFrames: number[]; benchMoved: number; benchRecording: boolean };
    w.benchRecording = false;
    return { timestamps: w.benchFrames, moved: w.benchMoved };
  });
  await page.mouse.up();
  if (moved * zoom < distance / 2) throw new Error(`node ${nodeId} did not follow the drag`);
  return timestamps.slice(1).map((t, i) => t - timestamps[i]);
}

/** The viewport's zoom, from React Flow's transform. */
export async function zoomOf(page: Page): Promise<number> {
  return page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);
}

/** Zooms in with the mouse wheel over the node until the zoom is at least `zoom`. */
export async function zoomInOn(page: Page, nodeId: string, zoom: number): Promise<number> {
  for (let i = 0; i < 40 && (await zoomOf(page)) < zoom; i++) {
    const box = await page.locator(nodeSelector(nodeId)).boundingBox();
    if (!box) throw new Error(`node ${nodeId} has no box`);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -200);
    await page.waitForTimeout(50);
  }
  // Let the zoom settle (React Flow ends a wheel gesture after a short pause).
  await page.waitForTimeout(500);
  return zoomOf(page);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  tdur?: number;
}

export interface FrameWork {
  /** Main-thread CPU time per animation frame (ms). */
  totalMs: number;
  /** Of which style, layout, paint and compositing (ms). */
  renderingMs: number;
}

const RENDERING = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit']);

/**
 * Main-thread work per animation frame in a Chrome trace: the thread time (CPU time, so load from
 * other processes does not count) of the tasks on the page's main thread, the one running the
 * animation-frame callbacks, over `frames` frames. Shows the headroom a 60 Hz frame rate hides.
 */
export function frameWork(events: readonly TraceEvent[], frames: number): FrameWork {
  const counts = new Map<string, number>();
  for (const e of events)
    if (e.name === 'FireAnimationFrame')
      counts.set(`${e.pid}:${e.tid}`, (counts.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  let total = 0;
  let rendering = 0;
  for (const e of events) {
    if (e.ph !== 'X' || `${e.pid}:${e.tid}` !== main) continue;
    if (e.name === 'RunTask') total += e.tdur ?? 0;
    else if (RENDERING.has(e.name)) rendering += e.tdur ?? 0;
  }
  return { totalMs: total / 1000 / frames, renderingMs: rendering / 1000 / frames };
}

/** A drag (see dragFrames) under Chrome's tracing, measured by frameWork. */
export async function dragWork(page: Page, nodeId: string): Promise<FrameWork> {
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  const deltas = await dragFrames(page, nodeId);
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  return frameWork(trace.traceEvents, deltas.length);
}

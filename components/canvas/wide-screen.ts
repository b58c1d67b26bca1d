/**
 * Whether the window is wider than a phone (Tailwind's `md`, 768 px): the simulator and the
 * minimap start shown only there. True on the server, which renders no canvas.
 */
export const isWideScreen = () =>
  typeof window === 'undefined' || window.matchMedia('(min-width: 768px)').matches;

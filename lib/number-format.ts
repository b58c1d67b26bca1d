/** Counts as every screen shows them: 12,345 (English digit groups, whatever the browser's locale). */
export const countFormat = new Intl.NumberFormat('en');

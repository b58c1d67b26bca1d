/** Polls `check` until it gives something truthy (a condition, never a fixed wait). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

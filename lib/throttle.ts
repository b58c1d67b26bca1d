/**
 * Calls `run` at most once every `intervalMs`: at once when the last call is that long ago,
 * else once at the end of the interval (a trailing call, so the latest state is what arrives
 * last; `run` reads it when called). `cancel` drops a trailing call not made yet.
 */
export function throttle(run: () => void, intervalMs: number) {
  let last = Number.NEGATIVE_INFINITY;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    trailing = null;
    last = Date.now();
    run();
  };
  return {
    call() {
      if (trailing !== null) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) fire();
      else trailing = setTimeout(fire, wait);
    },
    cancel() {
      if (trailing !== null) clearTimeout(trailing);
      trailing = null;
    },
  };
}

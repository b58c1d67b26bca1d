export async function register() {
  // Node-only start-up lives in its own file so the Edge build never sees it.
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServerRuntime } = await import('./server/runtime/start-server-runtime');
    await startServerRuntime();
  }
}

/**
 * The rejections left unhandled while `run` runs, and until the macrotask after it. The runner's
 * own listener is set aside meanwhile, so a leak fails the test that made it, showing what leaked.
 */
export async function unhandledRejectionsDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  const runners = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', record);
  try {
    await run();
    // Node reports an unhandled rejection after the microtasks of the turn that made it.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.removeListener('unhandledRejection', record);
    for (const listener of runners) process.on('unhandledRejection', listener);
  }
  return seen;
}

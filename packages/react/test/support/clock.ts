import { vi } from 'vitest';

/** Moves the wall clock on, past the one-token-request-per-10-seconds floor (`Date` faked). */
export function later(seconds = 11): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

// Taken before any test fakes timers.
const realSetTimeout = globalThis.setTimeout;

/**
 * Runs faked timers on for `seconds`, half a second at a time, letting the real asynchronous work
 * each step starts (WebCrypto, which fake timers do not drive) finish before the next.
 */
export async function runFor(seconds: number): Promise<void> {
  for (let step = 0; step < seconds * 2; step += 1) {
    await vi.advanceTimersByTimeAsync(500);
    await new Promise((resolve) => realSetTimeout(resolve, 15));
  }
}

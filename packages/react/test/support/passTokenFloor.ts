import { onTestFinished, vi } from 'vitest';
import { minRequestInterval } from '../../src/core/sessionRecord';

/**
 * Lets the floor of rule 5 pass (one token request per session per 10 s). The code exchange of a
 * sign-in is a token request: a test of "a renewal, some time after sign-in" lets that time pass
 * first, or its renewal rightly sends nothing. With fake timers (the test's, or `fakeTimeForFloor`'s)
 * the time runs on, and timers due meanwhile fire; without, `Date` alone is faked and moved on, and
 * keeps running from there, while real timers are not run ahead. The real clock comes back when the
 * test ends.
 */
export async function passTokenFloor(): Promise<void> {
  const floor = minRequestInterval + 1000;
  if (vi.isFakeTimers()) {
    await vi.advanceTimersByTimeAsync(floor);
    return;
  }
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  vi.setSystemTime(Date.now() + floor);
}

/**
 * Fakes `Date` and timeouts, which run as the real ones do until `passTokenFloor` moves them on: for
 * a test that waits for a timer set at sign-in (the renewal timer, which now fires no sooner than
 * 10 s after the code exchange). Call it before the sign-in; the real clock comes back when the test
 * ends.
 */
export function fakeTimeForFloor(): void {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

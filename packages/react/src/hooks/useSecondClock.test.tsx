import { StrictMode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { useSecondClock } from './useSecondClock';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(new Date('2026-01-01T00:00:00.400Z'));
});
afterEach(() => vi.useRealTimers());

const start = Date.UTC(2026, 0, 1) / 1000;

test('useSecondClock gives the whole second and re-renders once a second while ticking', () => {
  let renders = 0;
  const { result } = renderHook(
    () => {
      renders += 1;
      return useSecondClock(true);
    },
    { wrapper: StrictMode },
  );
  expect(result.current).toBe(start);
  const before = renders;
  for (const second of [1, 2, 3]) {
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(start + second);
  }
  // StrictMode renders twice: three ticks are six renders, not more.
  expect(renders - before).toBe(6);
  act(() => vi.advanceTimersByTime(999));
  expect(renders - before).toBe(6);
});

test('useSecondClock is 0 and sets no timer while not ticking, and starts when asked', () => {
  const { result, rerender } = renderHook(({ ticking }) => useSecondClock(ticking), {
    initialProps: { ticking: false },
    wrapper: StrictMode,
  });
  expect(result.current).toBe(0);
  expect(vi.getTimerCount()).toBe(0);
  rerender({ ticking: true });
  expect(result.current).toBe(start);
  rerender({ ticking: false });
  expect(result.current).toBe(0);
  expect(vi.getTimerCount()).toBe(0);
});

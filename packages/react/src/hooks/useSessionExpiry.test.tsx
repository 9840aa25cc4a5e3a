import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { useSessionExpiry } from './useSessionExpiry';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('useSessionExpiry counts down every second', async () => {
  const client = await hooks.signedInClient({ accessTokenTtl: 100 });
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  const { result } = renderHook(() => useSessionExpiry(60), { wrapper: wrapperFor(client) });
  const expiresAt = client.getSnapshot().user?.expires_at as number;
  expect(result.current.expiresAt?.getTime()).toBe(expiresAt * 1000);
  expect(result.current.secondsLeft).toBeGreaterThan(95);
  expect(result.current.isExpiring).toBe(false);
  act(() => vi.advanceTimersByTime(45_000));
  expect(result.current.secondsLeft).toBeLessThanOrEqual(55);
  expect(result.current.isExpiring).toBe(true);
  vi.useRealTimers();
});

test('useSessionExpiry is empty when signed out', async () => {
  const client = await hooks.signedOutClient();
  const { result } = renderHook(() => useSessionExpiry(), { wrapper: wrapperFor(client) });
  expect(result.current).toEqual({ expiresAt: null, secondsLeft: null, isExpiring: false });
});

test('useSessionExpiry says a session is expiring under 60 seconds by default', async () => {
  const client = await hooks.signedInClient({ accessTokenTtl: 100 });
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  const { result } = renderHook(() => useSessionExpiry(), { wrapper: wrapperFor(client) });
  act(() => vi.advanceTimersByTime(35_000));
  expect(result.current.secondsLeft).toBeGreaterThan(60);
  expect(result.current.isExpiring).toBe(false);
  act(() => vi.advanceTimersByTime(10_000));
  expect(result.current.secondsLeft).toBeLessThan(60);
  expect(result.current.isExpiring).toBe(true);
  vi.useRealTimers();
});

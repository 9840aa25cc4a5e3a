import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { useAuthActions } from './useAuthActions';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('useAuthActions acts without subscribing: the same functions, no re-render on renewal', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const client = await hooks.signedInClient();
  let renders = 0;
  const { result } = renderHook(
    () => {
      renders += 1;
      return useAuthActions();
    },
    { wrapper: wrapperFor(client) },
  );
  const first = result.current;
  const before = renders;
  vi.setSystemTime(Date.now() + 11_000); // past the 10 s between token requests
  await act(() => result.current.renew().then(() => undefined));
  expect(hooks.harness.provider.count('refresh')).toBe(1);
  expect(renders).toBe(before);
  expect(result.current).toBe(first);

  await act(() => result.current.signOut({ redirect: false }));
  expect(client.getSnapshot().status).toBe('unauthenticated');
});

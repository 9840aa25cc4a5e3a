import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { useAuth } from './useAuth';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('useAuth gives the state and working actions', async () => {
  const client = await hooks.signedInClient();
  const { result } = renderHook(() => useAuth(), { wrapper: wrapperFor(client) });
  expect(result.current).toMatchObject({
    status: 'authenticated',
    isAuthenticated: true,
    isLoading: false,
    error: null,
  });
  expect(result.current.user?.profile.name).toBe('Alice Liddell');
  await act(() => result.current.signOut({ redirect: false }));
  expect(result.current).toMatchObject({
    status: 'unauthenticated',
    isAuthenticated: false,
    user: null,
  });
});

import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import { useAuthHeaders } from './useAuthHeaders';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('useAuthHeaders gives the headers for requests made by other means, and stays the same function', async () => {
  const client = await hooks.signedInClient();
  const { result } = renderHook(() => useAuthHeaders(), { wrapper: wrapperFor(client) });
  const first = result.current;
  expect(await result.current('/upload', { method: 'PUT' })).toEqual({
    Authorization: `Bearer ${client.getSnapshot().user?.access_token}`,
  });
  await passTokenFloor();
  await act(() => client.renew());
  expect(result.current).toBe(first);
  await act(() => client.signOut({ redirect: false }));
  expect(await result.current('/upload')).toBeNull();
});

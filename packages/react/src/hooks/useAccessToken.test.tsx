import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import { useAccessToken } from './useAccessToken';
import { useAuthFetch } from './useAuthFetch';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('useAccessToken and useAuthFetch', async () => {
  const client = await hooks.signedInClient();
  const { result } = renderHook(() => ({ token: useAccessToken(), authFetch: useAuthFetch() }), {
    wrapper: wrapperFor(client),
  });
  expect(result.current.token).toBe(client.getSnapshot().user?.access_token);
  const response = await result.current.authFetch(`${hooks.harness.provider.apiOrigin}/me`);
  expect(await response.json()).toEqual({ sub: 'alice' });
  const first = result.current.authFetch;
  await passTokenFloor();
  await act(() => client.renew());
  expect(result.current.token).toBe(client.getSnapshot().user?.access_token);
  expect(result.current.authFetch).toBe(first);
});

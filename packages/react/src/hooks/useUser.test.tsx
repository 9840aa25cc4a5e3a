import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { useUser } from './useUser';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

test('a profile change does re-render useUser readers', async () => {
  const client = await hooks.signedInClient();
  hooks.harness.provider.options.idTokenClaims = (claims) => ({
    ...claims,
    email: 'alice@new.example',
  });
  const { result } = renderHook(() => useUser(), { wrapper: wrapperFor(client) });
  const before = result.current;
  await act(() => client.renew());
  expect(result.current).not.toBe(before);
  expect(result.current?.email).toBe('alice@new.example');
});

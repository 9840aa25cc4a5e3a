import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { createHookHarness, wrapperFor } from '../../test/support/hookHarness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '../testing';
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
  await passTokenFloor();
  await act(() => client.renew());
  expect(result.current).not.toBe(before);
  expect(result.current?.email).toBe('alice@new.example');
});

test("the ID token's own claims (exp, iat, …) are left out, so no reader sees an old token's", async () => {
  const client = await hooks.signedInClient();
  const { result } = renderHook(() => useUser(), { wrapper: wrapperFor(client) });
  await passTokenFloor();
  await act(() => client.renew());
  const profile = client.getSnapshot().user?.profile;
  expect(profile?.exp).toBeTypeOf('number');
  expect(result.current?.sub).toBe(profile?.sub);
  for (const claim of ['exp', 'iat', 'nbf', 'nonce', 'jti', 'at_hash', 'c_hash']) {
    expect(result.current).not.toHaveProperty(claim);
  }
});

test('a new authentication (auth_time) or provider session (sid) re-renders useUser readers', () => {
  // A step-up or a sign-in again: oidc-client-ts refuses a renewal that changes auth_time.
  const user = (auth_time: number, sid: string) => createTestUser({ claims: { auth_time, sid } });
  const auth = createMockAuthClient({ user: user(1_000, 'before') });
  const { result } = renderHook(() => useUser(), {
    wrapper: ({ children }) => <MockAuthProvider client={auth}>{children}</MockAuthProvider>,
  });
  act(() => auth.set({ user: user(2_000, 'after') }));
  expect(result.current?.auth_time).toBe(2_000);
  expect(result.current?.sid).toBe('after');
});

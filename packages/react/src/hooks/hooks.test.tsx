import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { AuthProvider } from '../AuthProvider';
import type { AuthClient } from '../core/AuthClient';
import { useAccessToken } from './useAccessToken';
import { useAuth } from './useAuth';
import { useAuthFetch } from './useAuthFetch';
import { useAuthState } from './useAuthState';
import { useSessionExpiry } from './useSessionExpiry';
import { useUser } from './useUser';

let harness: Harness;
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
});

async function signedInClient(options = {}): Promise<AuthClient> {
  harness = createHarness(options);
  const { client } = await harness.signIn(harness.createClient());
  return client;
}

function wrapperFor(client: AuthClient) {
  return ({ children }: { children: React.ReactNode }) => (
    <AuthProvider client={client}>{children}</AuthProvider>
  );
}

describe('outside AuthProvider every hook throws, naming itself and the fix', () => {
  test.each([
    ['useAuth', () => useAuth()],
    ['useAuthState', () => useAuthState((state) => state.status)],
    ['useUser', () => useUser()],
    ['useAccessToken', () => useAccessToken()],
    ['useAuthFetch', () => useAuthFetch()],
    ['useSessionExpiry', () => useSessionExpiry()],
  ] as [string, () => unknown][])('%s', (name, hook) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(hook)).toThrow(
      new RegExp(
        `^${name}\\(\\) must be used inside <AuthProvider>\\. Wrap your app in <AuthProvider config=`,
      ),
    );
  });
});

describe('hooks read the store', () => {
  test('useAuth gives the state and working actions', async () => {
    const client = await signedInClient();
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

  test('useAccessToken and useAuthFetch', async () => {
    const client = await signedInClient();
    const { result } = renderHook(() => ({ token: useAccessToken(), authFetch: useAuthFetch() }), {
      wrapper: wrapperFor(client),
    });
    expect(result.current.token).toBe(client.getSnapshot().user?.access_token);
    const response = await result.current.authFetch(`${harness.provider.apiOrigin}/me`);
    expect(await response.json()).toEqual({ sub: 'alice' });
    const first = result.current.authFetch;
    await act(() => client.renew());
    expect(result.current.token).toBe(client.getSnapshot().user?.access_token);
    expect(result.current.authFetch).toBe(first);
  });

  test('useSessionExpiry counts down every second', async () => {
    const client = await signedInClient({ accessTokenTtl: 100 });
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
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    const { result } = renderHook(() => useSessionExpiry(), { wrapper: wrapperFor(client) });
    expect(result.current).toEqual({ expiresAt: null, secondsLeft: null, isExpiring: false });
  });
});

describe('re-renders', () => {
  test('components that read only the name or the profile do not re-render on renewal', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await signedInClient();
    const renders = { name: 0, user: 0, auth: 0 };
    function Name() {
      renders.name += 1;
      return <p>{useAuthState((state) => state.user?.profile.name)}</p>;
    }
    function Profile() {
      renders.user += 1;
      return <p>{useUser()?.email as string}</p>;
    }
    function Everything() {
      renders.auth += 1;
      return <p>{useAuth().status}</p>;
    }
    render(
      <AuthProvider client={client}>
        {Array.from({ length: 20 }, (_, index) => (
          <Name key={`n${index}`} />
        ))}
        <Profile />
        <Everything />
      </AuthProvider>,
    );
    await waitFor(() => expect(screen.getAllByText('Alice Liddell')).toHaveLength(20));
    const before = { ...renders };
    for (let round = 0; round < 10; round += 1) {
      const previous = client.getSnapshot().user;
      // Past the 10 s the engine keeps between token requests.
      vi.setSystemTime(Date.now() + 11_000);
      await act(() => client.renew());
      expect(client.getSnapshot().user).not.toBe(previous);
    }
    expect(harness.provider.count('refresh')).toBe(10);
    expect(renders.name).toBe(before.name);
    expect(renders.user).toBe(before.user);
    // The control: a component reading everything re-renders on each renewal (twice in StrictMode).
    expect(renders.auth).toBe(before.auth + 20);
  });

  test('useAuthState follows a selector that changes between renders', async () => {
    const client = await signedInClient();
    const { result, rerender } = renderHook(
      ({ claim }: { claim: string }) => useAuthState((state) => state.user?.profile[claim]),
      { wrapper: wrapperFor(client), initialProps: { claim: 'name' } },
    );
    expect(result.current).toBe('Alice Liddell');
    rerender({ claim: 'email' });
    expect(result.current).toBe('alice@example.com');
  });

  test('a profile change does re-render useUser readers', async () => {
    const client = await signedInClient();
    harness.provider.options.idTokenClaims = (claims) => ({
      ...claims,
      email: 'alice@new.example',
    });
    const { result } = renderHook(() => useUser(), { wrapper: wrapperFor(client) });
    const before = result.current;
    await act(() => client.renew());
    expect(result.current).not.toBe(before);
    expect(result.current?.email).toBe('alice@new.example');
  });
});

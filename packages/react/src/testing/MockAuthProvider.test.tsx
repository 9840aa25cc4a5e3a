import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { describe, expect, test } from 'vitest';
import { createHarness } from '../../test/support/harness';
import { Authorized } from '../components/Authorized';
import { RequireAuth } from '../components/RequireAuth';
import { SignInButton } from '../components/SignInButton';
import { writeGuardAttempt } from '../core/guardAttempts';
import { AuthError } from '../core/errors';
import { roleReaders } from '../core/roles';
import { useAuth } from '../hooks/useAuth';
import { useAuthFetch } from '../hooks/useAuthFetch';
import { useAuthState } from '../hooks/useAuthState';
import { MockAuthProvider } from './MockAuthProvider';
import { createMockAuthClient } from './createMockAuthClient';
import { createTestUser } from './createTestUser';

// The example from the README: an app's own screen, tested in each auth state.
function Header() {
  const { status, user, signIn, signOut } = useAuth();
  if (status === 'loading') return <p>…</p>;
  if (user === null) return <button onClick={() => signIn({ returnTo: '/' })}>Sign in</button>;
  return (
    <>
      <span>{user.profile.name}</span>
      <button onClick={() => signOut()}>Sign out</button>
    </>
  );
}

describe('MockAuthProvider', () => {
  test('renders each state through the real hooks', () => {
    const { rerender } = render(
      <MockAuthProvider state="loading">
        <Header />
      </MockAuthProvider>,
    );
    expect(screen.getByText('…')).toBeDefined();
    rerender(
      <MockAuthProvider state="unauthenticated">
        <Header />
      </MockAuthProvider>,
    );
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined();
    rerender(
      <MockAuthProvider state="authenticated" user={createTestUser({ name: 'Alice Liddell' })}>
        <Header />
      </MockAuthProvider>,
    );
    expect(screen.getByText('Alice Liddell')).toBeDefined();
  });

  test('keeps the signOutReason prop after mount, and follows it when it changes', async () => {
    function Reason() {
      return <p>{String(useAuthState((state) => state.signOutReason))}</p>;
    }
    const { rerender } = render(
      <MockAuthProvider state="unauthenticated" signOutReason="idle">
        <Reason />
      </MockAuthProvider>,
    );
    await act(async () => undefined);
    expect(screen.getByText('idle')).toBeDefined();
    rerender(
      <MockAuthProvider state="unauthenticated" signOutReason="expired">
        <Reason />
      </MockAuthProvider>,
    );
    expect(screen.getByText('expired')).toBeDefined();
  });

  test("a child's action on mount stands: the state props do not undo it", async () => {
    sessionStorage.clear();
    writeGuardAttempt(null);
    render(
      <MockAuthProvider state="unauthenticated">
        <RequireAuth>
          <p>Secret report</p>
        </RequireAuth>
      </MockAuthProvider>,
    );
    await act(async () => undefined);
    // RequireAuth started sign-in in its effect: the real client is signing in now.
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
    writeGuardAttempt(null);
  });

  test('act(() => auth.set()) reaches a component that an async render has just mounted', async () => {
    // As a router does after its loader: the page mounts in an update outside act(), and its
    // subscription (an effect) is still pending when a test finds it and changes the state.
    const auth = createMockAuthClient({ user: createTestUser({ name: 'Alice Liddell' }) });
    let mount = () => {};
    let committed = () => {};
    const painted = new Promise<void>((resolve) => (committed = resolve));
    function Page() {
      useLayoutEffect(() => committed(), []);
      return <Header />;
    }
    function Router() {
      const [loaded, setLoaded] = useState(false);
      useEffect(() => {
        mount = () => startTransition(() => setLoaded(true));
      }, []);
      return loaded ? <Page /> : <p>Loading</p>;
    }
    render(
      <MockAuthProvider client={auth}>
        <Router />
      </MockAuthProvider>,
    );
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    mount();
    await painted;
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    expect(screen.getByText('Alice Liddell')).toBeDefined();
    act(() => auth.set({ state: 'unauthenticated', user: null }));
    expect(screen.queryByText('Alice Liddell')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined();
  });

  test("createMockAuthClient's example, as written in its documentation", async () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    render(
      <MockAuthProvider client={auth}>
        <SignInButton returnTo="/orders" />
      </MockAuthProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/orders' }]]);
  });

  test('records actions on spies and moves the state as the real client would', async () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    render(
      <MockAuthProvider client={auth}>
        <Header />
      </MockAuthProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/' }]]);
    expect(auth.getSnapshot().status).toBe('signing-in');

    auth.set({ state: 'authenticated', user: createTestUser({ name: 'Bob Stone' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(auth.signOut.calls).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeDefined();
  });

  test('defaults: authenticated makes a test user; error makes a cancelled sign-in', () => {
    expect(createMockAuthClient({ state: 'authenticated' }).getSnapshot().user?.profile.name).toBe(
      'Test User',
    );
    const error = createMockAuthClient({ state: 'error' }).getSnapshot().error;
    expect(error?.code).toBe('provider_error');
    expect(error?.providerError).toBe('access_denied');
  });

  test('the error state always has an error: the default one unless another is given', () => {
    const auth = createMockAuthClient({ state: 'authenticated' });
    auth.set({ state: 'error' });
    expect(auth.getSnapshot().error?.providerError).toBe('access_denied');
    auth.set({ state: 'error', error: null });
    expect(auth.getSnapshot().error).not.toBeNull();
    function Status() {
      return <p>{useAuthState((state) => `${state.status}: ${state.error?.code ?? 'none'}`)}</p>;
    }
    const { rerender } = render(
      <MockAuthProvider state="authenticated">
        <Status />
      </MockAuthProvider>,
    );
    rerender(
      <MockAuthProvider state="error">
        <Status />
      </MockAuthProvider>,
    );
    expect(screen.getByText('error: provider_error')).toBeDefined();
  });

  test('getAuthHeaders: Bearer, or DPoP with a stand-in proof (no crypto); null when signed out', async () => {
    const bearer = createMockAuthClient({ state: 'authenticated' });
    const token = bearer.getSnapshot().user?.access_token;
    expect(await bearer.getAuthHeaders('https://api.example.com/me')).toEqual({
      Authorization: `Bearer ${token}`,
    });
    const bound = createMockAuthClient({ user: createTestUser({ dpop: true }) });
    expect(await bound.getAuthHeaders('https://api.example.com/me', { method: 'POST' })).toEqual({
      Authorization: `DPoP ${bound.getSnapshot().user?.access_token}`,
      DPoP: 'mock-dpop-proof',
    });
    expect(bound.getAuthHeaders.calls).toEqual([
      ['https://api.example.com/me', { method: 'POST' }],
    ]);
    expect(await createMockAuthClient().getAuthHeaders('/me')).toBeNull();
    // Its fetch sends what getAuthHeaders says.
    const seen: Request[] = [];
    const viaFetch = createMockAuthClient({
      user: createTestUser({ dpop: true }),
      fetch: async (input) => {
        seen.push(input as Request);
        return new Response('{}');
      },
    });
    await viaFetch.fetch('/orders');
    expect(seen[0]?.headers.get('Authorization')).toBe(
      `DPoP ${viaFetch.getSnapshot().user?.access_token}`,
    );
    expect(seen[0]?.headers.get('DPoP')).toBe('mock-dpop-proof');
  });

  test('its fetch sends the test user’s token to the page’s origin only', async () => {
    const seen: (string | null)[] = [];
    const auth = createMockAuthClient({
      user: createTestUser(),
      fetch: async (input) => {
        seen.push(new Request(input).headers.get('Authorization'));
        return new Response('{}');
      },
    });
    function Caller() {
      const authFetch = useAuthFetch();
      return (
        <button
          onClick={() => void authFetch('/api/me').then(() => authFetch('https://other.example/x'))}
        >
          call
        </button>
      );
    }
    render(
      <MockAuthProvider client={auth}>
        <Caller />
      </MockAuthProvider>,
    );
    await userEvent.click(screen.getByRole('button'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([`Bearer ${auth.getSnapshot().user?.access_token}`, null]);
  });

  test('its fetch reads apiOrigins as the real config does (a trailing slash is the same origin)', async () => {
    const seen: (string | null)[] = [];
    const auth = createMockAuthClient({
      user: createTestUser(),
      apiOrigins: ['https://api.example.com/'],
      fetch: async (input) => {
        seen.push(new Request(input).headers.get('Authorization'));
        return new Response('{}');
      },
    });
    await auth.fetch('https://api.example.com/me');
    expect(seen).toEqual([`Bearer ${auth.getSnapshot().user?.access_token}`]);
  });
});

describe('createMockAuthClient, as the real client', () => {
  test('set() keeps what it is not given, the sign-out reason too', () => {
    const auth = createMockAuthClient({ state: 'unauthenticated', signOutReason: 'elsewhere' });
    const expired = new AuthError('session_expired', 'The session ended at the provider.');
    auth.set({ error: expired });
    expect(auth.getSnapshot()).toMatchObject({ error: expired, signOutReason: 'elsewhere' });
    // A reason belongs to the signed-out state only.
    auth.set({ state: 'signing-in' });
    auth.set({ state: 'unauthenticated' });
    expect(auth.getSnapshot().signOutReason).toBeNull();
  });

  test('set() refuses a signed-in state without a user, which the real client never has', () => {
    const auth = createMockAuthClient({ user: createTestUser() });
    expect(() => auth.set({ state: 'authenticated', user: null })).toThrow(
      /`authenticated` needs a user/,
    );
    expect(auth.getSnapshot().user).not.toBeNull();
  });

  test('dismissError() keeps the sign-out reason, and the same snapshot when there is no error', async () => {
    const harness = createHarness();
    try {
      const real = harness.createClient();
      await real.start();
      await real.signOut({ redirect: false });
      const mock = createMockAuthClient({ state: 'unauthenticated', signOutReason: 'user' });
      for (const client of [real, mock]) {
        const before = client.getSnapshot();
        client.dismissError();
        expect(client.getSnapshot()).toBe(before);
        expect(client.getSnapshot().signOutReason).toBe('user');
      }
    } finally {
      harness.dispose();
    }
    const expired = createMockAuthClient({
      state: 'unauthenticated',
      signOutReason: 'expired',
      error: new AuthError('session_expired', 'The session ended at the provider.'),
    });
    expired.dismissError();
    expect(expired.getSnapshot()).toMatchObject({ error: null, signOutReason: 'expired' });
  });

  test("signOut() records the reason it is given, as the real client's does", async () => {
    const harness = createHarness();
    try {
      const real = harness.createClient();
      await real.start();
      const mock = createMockAuthClient({ user: createTestUser() });
      for (const client of [real, mock]) {
        await client.signOut({ reason: 'idle', redirect: false });
        expect(client.getSnapshot()).toMatchObject({
          status: 'unauthenticated',
          signOutReason: 'idle',
        });
      }
    } finally {
      harness.dispose();
    }
  });

  test("reads roles with the real client's default reader: a string claim, the access token's claims", () => {
    const single = () => createTestUser({ claims: { roles: 'admin' } });
    // Roles in the access token only (an API's roles), none in the ID token.
    const inAccessToken = createTestUser({ roles: ['admin', 'billing'] });
    inAccessToken.profile = { ...inAccessToken.profile, roles: undefined };
    const harness = createHarness();
    try {
      const real = harness.createClient();
      const mock = createMockAuthClient();
      for (const user of [single(), inAccessToken, createTestUser({ roles: ['user'] })]) {
        expect(mock.readRoles(user)).toEqual(real.readRoles(user));
      }
      expect(mock.readRoles(single())).toEqual(['admin']);
    } finally {
      harness.dispose();
    }
    render(
      <MockAuthProvider user={single()}>
        <Authorized roles={['admin']} fallback={<p>Forbidden</p>}>
          <p>Admin tools</p>
        </Authorized>
      </MockAuthProvider>,
    );
    expect(screen.getByText('Admin tools')).toBeDefined();
  });

  test('readRoles, when given, reads the roles instead', () => {
    const auth = createMockAuthClient({ readRoles: roleReaders.keycloak() });
    const user = createTestUser({ claims: { realm_access: { roles: ['admin'] } } });
    expect(auth.readRoles(user)).toEqual(['admin']);
  });

  test('a readRoles that throws gives no roles, as the real client reads it', () => {
    const throwing = () => {
      throw new Error('no such claim');
    };
    const user = createTestUser();
    const harness = createHarness();
    try {
      expect(harness.createClient({ config: { roles: throwing } }).readRoles(user)).toEqual([]);
      expect(createMockAuthClient({ readRoles: throwing }).readRoles(user)).toEqual([]);
    } finally {
      harness.dispose();
    }
  });

  test('getAccessToken() and getAuthHeaders() asked while loading wait for the state that follows, as the real client does', async () => {
    const restored = createTestUser({ name: 'Alice Liddell' });
    const auth = createMockAuthClient({ state: 'loading' });
    const token = auth.getAccessToken();
    const headers = auth.getAuthHeaders('/me');
    // The session is restored later, as the real client's is after its first render.
    await new Promise((resolve) => setTimeout(resolve, 10));
    auth.set({ state: 'authenticated', user: restored });
    expect(await token).toBe(restored.access_token);
    expect(await headers).toEqual({ Authorization: `Bearer ${restored.access_token}` });
    // No stored session: null once the mock leaves loading.
    const signedOut = createMockAuthClient({ state: 'loading' });
    const none = signedOut.getAccessToken();
    signedOut.set({ state: 'unauthenticated' });
    expect(await none).toBeNull();
  });

  test('start() asked while loading resolves once the state that follows is set, as the real client does', async () => {
    const auth = createMockAuthClient({ state: 'loading' });
    const seen: string[] = [];
    const started = auth.start().then(() => seen.push(auth.getSnapshot().status));
    // Whatever runs first, start() has not resolved on `loading`.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([]);
    auth.set({ state: 'unauthenticated' });
    await started;
    expect(seen).toEqual(['unauthenticated']);
    expect(auth.start.calls).toHaveLength(1);
    // Once known, at once.
    await auth.start();
  });

  test('getAccessToken() renews nothing: an expiring token is given as it is', async () => {
    const expiring = createTestUser({ expiresIn: 2 });
    const auth = createMockAuthClient({ user: expiring });
    expect(await auth.getAccessToken()).toBe(expiring.access_token);
    expect(auth.renew.calls).toHaveLength(0);
  });

  test('the idle warning shows only while signed in, and ends with the session', () => {
    const auth = createMockAuthClient({ user: createTestUser(), idleWarning: 30_000 });
    let heard = 0;
    auth.idle.subscribe(() => (heard += 1));
    expect(auth.idle.getSnapshot().status).toBe('warning');
    auth.set({ state: 'unauthenticated' });
    expect(auth.idle.getSnapshot()).toEqual({ status: 'active', deadline: null });
    expect(heard).toBe(1);
    auth.setIdleWarning(30_000);
    expect(auth.idle.getSnapshot()).toEqual({ status: 'active', deadline: null });
  });
});

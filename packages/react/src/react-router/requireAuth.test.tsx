import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  RouterProvider,
  createBrowserRouter,
  createMemoryRouter,
  isRouteErrorResponse,
  useFetcher,
  useLoaderData,
  useRouteError,
} from 'react-router';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
import { deferred } from '../../test/support/deferred';
import { AuthProvider } from '../AuthProvider';
import { AuthError } from '../core/errors';
import { writeGuardAttempt } from '../core/guardAttempts';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '../testing';
import type { MockAuthClient } from '../testing';
import { requireAuth } from './requireAuth';
import type { LoaderAuthClient } from './requireAuth';

beforeEach(() => {
  sessionStorage.clear();
  writeGuardAttempt(null);
});

function Admin() {
  const user = useLoaderData() as { profile: { name: string } };
  return <h1>Admin for {user.profile.name}</h1>;
}

function Failure() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    return (
      <p role="alert">
        {error.status} {(error.data as { code: string }).code}
      </p>
    );
  }
  return <p role="alert">unexpected</p>;
}

function createRouter(auth: LoaderAuthClient) {
  return createMemoryRouter(
    [
      { path: '/', element: <p>Home</p> },
      {
        path: '/admin',
        loader: requireAuth(auth, { roles: ['admin'] }),
        Component: Admin,
        ErrorBoundary: Failure,
      },
    ],
    { initialEntries: ['/admin?tab=users'] },
  );
}

/** The guard run as a router runs it before `AuthProvider` mounts: "<status> <code>" when it throws. */
function runLoaderAlone(client: LoaderAuthClient): Promise<string> {
  return requireAuth(client)({ request: new Request(`${location.origin}/admin`) }).then(
    () => 'resolved',
    // What `data()` throws, before a router makes it a route error response.
    (thrown: { init?: { status?: number }; data?: { code?: string } }) =>
      `${thrown.init?.status} ${thrown.data?.code}`,
  );
}

function renderRouter(auth: MockAuthClient) {
  const router = createRouter(auth);
  render(
    <MockAuthProvider client={auth}>
      <RouterProvider router={router} />
    </MockAuthProvider>,
  );
  return router;
}

describe('requireAuth loader guard (React Router data router, in memory)', () => {
  test('waits for the auth state, then lets an admin through with the user as loader data', async () => {
    const auth = createMockAuthClient({ state: 'loading' });
    renderRouter(auth);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('heading')).toBeNull();
    auth.set({
      state: 'authenticated',
      user: createTestUser({ name: 'Bob Stone', roles: ['user', 'admin'] }),
    });
    expect(await screen.findByRole('heading', { name: 'Admin for Bob Stone' })).toBeDefined();
  });

  test('holds the client started while it waits, even before any provider mounts, and lets go once settled', async () => {
    const auth = createMockAuthClient({ state: 'loading' });
    const loader = requireAuth(auth);
    const loaded = loader({ request: new Request('http://localhost/admin') });
    expect(auth.start.calls).toHaveLength(1);
    expect(auth.stop.calls).toHaveLength(0);
    auth.set({ state: 'authenticated', user: createTestUser() });
    await loaded;
    expect(auth.stop.calls).toHaveLength(1);
  });

  test('an abandoned navigation lets go of the client and starts no sign-in', async () => {
    const auth = createMockAuthClient({ state: 'loading' });
    const navigation = new AbortController();
    const loaded = requireAuth(auth)({
      request: new Request('http://localhost/admin', { signal: navigation.signal }),
    });
    navigation.abort();
    await expect(loaded).rejects.toMatchObject({ name: 'AbortError' });
    expect(auth.stop.calls).toHaveLength(1);
    auth.set({ state: 'unauthenticated' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(auth.signIn.calls).toEqual([]);
  });

  test('a navigation abandoned while the client starts lets go at once, not once the session is known', async () => {
    // The real client's start() resolves once the session is known: after a slow code exchange,
    // say. Held here.
    const restoring = deferred();
    const auth = createMockAuthClient({ state: 'loading' });
    const client: LoaderAuthClient = { ...auth, start: () => restoring.promise };
    const navigation = new AbortController();
    const loaded = requireAuth(client)({
      request: new Request(`${location.origin}/admin`, { signal: navigation.signal }),
    });
    navigation.abort();
    const settled = await Promise.race([
      loaded.then(
        () => 'resolved',
        (error: Error) => error.name,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still pending'), 500)),
    ]);
    expect(settled).toBe('AbortError');
    expect(auth.stop.calls).toHaveLength(1);
    restoring.resolve();
  });

  test('throws a 403 response to a signed-in user without the role, and does not sign in', async () => {
    const auth = createMockAuthClient({ user: createTestUser({ roles: ['user'] }) });
    renderRouter(auth);
    expect((await screen.findByRole('alert')).textContent).toBe('403 forbidden');
    expect(auth.signIn.calls).toEqual([]);
  });

  test.each([
    ['a role', { roles: ['admin'] }],
    ['a scope', { scopes: ['orders:write'] }],
    ['`when`', { when: () => false }],
  ] as const)('the 403 for %s not met words it for any requirement', async (_, requirements) => {
    const auth = createMockAuthClient({ user: createTestUser({ roles: ['user'] }) });
    const load = requireAuth(auth, requirements);
    const failure: unknown = await load({ request: new Request('http://localhost/admin') }).catch(
      (thrown: unknown) => thrown,
    );
    expect(failure).toMatchObject({
      init: { status: 403 },
      data: { code: 'forbidden', message: 'Your account does not have access to this page.' },
    });
  });

  test('starts sign-in for a signed-out user, with the requested URL as returnTo', async () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    renderRouter(auth);
    await waitFor(() => expect(auth.signIn.calls).toEqual([[{ returnTo: '/admin?tab=users' }]]));
    expect(screen.queryByRole('heading')).toBeNull();
  });

  test('under a basename, the return path is the full path, query kept as encoded', async () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    const router = createMemoryRouter(
      [{ path: '/admin', loader: requireAuth(auth), Component: Admin, ErrorBoundary: Failure }],
      { initialEntries: ['/app/admin?q=a%20b&off=50%25'], basename: '/app' },
    );
    render(
      <MockAuthProvider client={auth}>
        <RouterProvider router={router} />
      </MockAuthProvider>,
    );
    await waitFor(() =>
      expect(auth.signIn.calls).toEqual([[{ returnTo: '/app/admin?q=a%20b&off=50%25' }]]),
    );
  });

  test("a deep link's hash survives the sign-in, although React Router leaves it out of the loader's request", async () => {
    history.replaceState(null, '', '/admin?tab=users#members');
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    const router = createBrowserRouter([
      { path: '/admin', loader: requireAuth(auth), Component: Admin, ErrorBoundary: Failure },
    ]);
    render(
      <MockAuthProvider client={auth}>
        <RouterProvider router={router} />
      </MockAuthProvider>,
    );
    await waitFor(() =>
      expect(auth.signIn.calls).toEqual([[{ returnTo: '/admin?tab=users#members' }]]),
    );
    router.dispose();
  });

  test("a fetcher's submission to a guarded action signs in back to the page it came from, not to the action", async () => {
    history.replaceState(null, '', '/orders/7?tab=items#notes');
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    function Orders() {
      const fetcher = useFetcher();
      return (
        <button
          type="button"
          onClick={() => void fetcher.submit({}, { method: 'post', action: '/api/save' })}
        >
          Save
        </button>
      );
    }
    const router = createBrowserRouter([
      { path: '/orders/7', Component: Orders },
      { path: '/api/save', action: requireAuth(auth) },
    ]);
    render(
      <MockAuthProvider client={auth}>
        <RouterProvider router={router} />
      </MockAuthProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(auth.signIn.calls).toEqual([[{ returnTo: '/orders/7?tab=items#notes' }]]),
    );
    router.dispose();
  });

  test('a second arrival without a session throws a 401 instead of redirecting again', async () => {
    writeGuardAttempt({ returnTo: '/admin?tab=users', silent: false });
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    renderRouter(auth);
    expect((await screen.findByRole('alert')).textContent).toBe('401 sign_in_needed');
    expect(auth.signIn.calls).toEqual([]);
  });

  test("a signed-out user who arrives with the ended session's error still gets a sign-in", async () => {
    const auth = createMockAuthClient({
      state: 'unauthenticated',
      error: new AuthError('signed_out_elsewhere', 'You signed out in another tab.'),
    });
    renderRouter(auth);
    await waitFor(() => expect(auth.signIn.calls).toEqual([[{ returnTo: '/admin?tab=users' }]]));
  });

  test.each(['user', 'elsewhere', 'expired', 'idle'] as const)(
    'a session that ended in this page (%s) gets a 401 sign_in_needed, not a redirect',
    async (reason) => {
      // Revalidating an open page after a local sign-out (a provider without end_session) must
      // not sign the user straight back in with the provider's session.
      const auth = createMockAuthClient({ state: 'unauthenticated', signOutReason: reason });
      renderRouter(auth);
      expect((await screen.findByRole('alert')).textContent).toBe('401 sign_in_needed');
      expect(auth.signIn.calls).toEqual([]);
    },
  );

  test('a failed sign-in throws a 401 with its code', async () => {
    const auth = createMockAuthClient({
      state: 'error',
      error: new AuthError('provider_error', 'cancelled', { providerError: 'access_denied' }),
    });
    renderRouter(auth);
    expect((await screen.findByRole('alert')).textContent).toBe('401 provider_error');
    expect(auth.signIn.calls).toEqual([]);
  });

  test('a redirect that never leaves the page (the user chose to stay) settles the navigation with a 401', async () => {
    const harness = createHarness();
    try {
      const client = harness.createClient();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
      render(
        <AuthProvider client={client}>
          <RouterProvider router={createRouter(client)} />
        </AuthProvider>,
      );
      await waitFor(() => expect(harness.redirects).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(15_000);
      expect((await screen.findByRole('alert')).textContent).toBe('401 sign_in_needed');
      expect(harness.redirects).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      harness.dispose();
    }
  });

  test.each([
    ['the user chose to stay', () => undefined],
    [
      'its page restored from the back-forward cache after leaving',
      () => window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })),
    ],
  ])(
    'a loader running alone (before AuthProvider mounts), its redirect not leaving (%s): a 401, and the client let go',
    async (_, meanwhile) => {
      const harness = createHarness();
      try {
        const client = harness.createClient();
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
        const outcome = runLoaderAlone(client);
        await vi.waitFor(() => expect(harness.redirects).toHaveLength(1));
        meanwhile();
        await vi.advanceTimersByTimeAsync(16_000);
        const settled = await Promise.race([
          outcome,
          new Promise((resolve) => setTimeout(() => resolve('still pending'), 500)),
        ]);
        expect(settled).toBe('401 sign_in_needed');
        // Its start() matched: nothing holds the client (its count of unmatched starts).
        expect((client as unknown as { holds: number }).holds).toBe(0);
      } finally {
        vi.useRealTimers();
        harness.dispose();
      }
    },
  );

  test('a sign-in that fails before the page leaves (provider unreachable) throws a 401 with its code', async () => {
    // The real client's signIn() resolves either way: the failure is in the snapshot.
    const harness = createHarness({ unreachable: true });
    try {
      const client = harness.createClient();
      render(
        <AuthProvider client={client}>
          <RouterProvider router={createRouter(client)} />
        </AuthProvider>,
      );
      expect((await screen.findByRole('alert')).textContent).toBe('401 network');
      expect(harness.redirects).toEqual([]);
    } finally {
      harness.dispose();
    }
  });
});

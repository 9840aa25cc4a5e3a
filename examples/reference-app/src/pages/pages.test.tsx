import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthClient, MockAuthOptions } from '@oidc-kit/react/testing';
import { requireAuth } from '@oidc-kit/react/react-router';
import { createRoutes } from '../routes';
import { RouteErrorPage } from './RouteErrorPage';

afterEach(() => sessionStorage.clear());

const apiOrigin = 'http://localhost:4001';

/** The app's own routes and loaders at `path`, over a mock auth client. */
function renderAt(path: string, auth: MockAuthClient) {
  const router = createMemoryRouter(createRoutes(auth), { initialEntries: [path] });
  render(
    <MockAuthProvider client={auth}>
      <RouterProvider router={router} />
    </MockAuthProvider>,
  );
  return router;
}

/** A mock client whose authenticated fetch reaches `api` for the API's origin. */
function withApi(options: MockAuthOptions, api: (url: string) => Promise<Response>) {
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    api(input instanceof Request ? input.url : String(input)),
  );
  return { fetch, auth: createMockAuthClient({ ...options, fetch, apiOrigins: [apiOrigin] }) };
}

const alice = () =>
  createTestUser({ name: 'Alice Liddell', sub: 'alice', roles: ['user'], expiresIn: 120 });
const bob = () => createTestUser({ name: 'Bob Stone', sub: 'bob', roles: ['user', 'admin'] });
const me = { sub: 'alice', name: 'Alice Liddell', roles: ['user'], scope: 'openid profile' };

/** The value beside a term of a description list. */
const fact = (term: string) => screen.getByText(term).nextElementSibling?.textContent;

describe('the header', () => {
  test('signed out: a Sign in button and only the public link', async () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    renderAt('/', auth);
    const header = await screen.findByRole('banner');
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    await userEvent.click(within(header).getByRole('button', { name: 'Sign in' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: undefined, popup: undefined }]]);
  });

  test('signed in: the name, Sign out, and the links the user may open', async () => {
    renderAt('/', createMockAuthClient({ user: alice() }));
    const header = await screen.findByRole('banner');
    expect(within(header).getByText('Alice Liddell')).toBeDefined();
    expect(within(header).getByRole('button', { name: 'Sign out' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
  });

  test('an admin also sees the Admin link', async () => {
    renderAt('/', createMockAuthClient({ user: bob() }));
    expect(await screen.findByRole('link', { name: 'Admin' })).toBeDefined();
  });

  test('a cancelled sign-in shows a message with a working Try again', async () => {
    const auth = createMockAuthClient({ state: 'error' });
    renderAt('/', auth);
    expect((await screen.findByRole('alert')).textContent).toContain('Sign-in was cancelled.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('an ended session says so', async () => {
    const auth = createMockAuthClient({
      state: 'unauthenticated',
      error: new AuthError('signed_out_elsewhere', 'You signed out in another tab.'),
    });
    renderAt('/', auth);
    expect((await screen.findByRole('status')).textContent).toContain(
      'You signed out in another tab.',
    );
  });
});

describe('pages', () => {
  test('the home page offers sign-in by redirect and in a popup', async () => {
    for (const [name, options] of [
      ['Sign in to get started', { returnTo: '/dashboard', popup: undefined }],
      ['Sign in in a popup', { returnTo: undefined, popup: true }],
    ] as const) {
      const auth = createMockAuthClient({ state: 'unauthenticated' });
      renderAt('/', auth);
      await userEvent.click(await screen.findByRole('button', { name }));
      expect(auth.signIn.calls).toEqual([[options]]);
      document.body.innerHTML = '';
    }
  });

  test('a sign-in that failed back on /callback is shown once, with one Try again', async () => {
    // E.g. sign-in started on /callback (its return path) and cancelled at the provider.
    const auth = createMockAuthClient({ state: 'error' });
    renderAt('/callback', auth);
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      expect.stringContaining('Sign-in was cancelled.'),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Sign-in' })).toBeDefined();
    expect(screen.getAllByText('Sign-in was cancelled.', { exact: false })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Try again' })).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('/callback while the sign-in response is processed shows progress under a heading', async () => {
    renderAt('/callback', createMockAuthClient({ state: 'signing-in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign-in' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
  });

  test('the dashboard loads what the API answered, and calls it again', async () => {
    const { auth, fetch } = withApi({ user: alice() }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    expect(fact('Subject')).toBe('alice');
    expect(fact('Roles')).toBe('user');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toMatchObject({ url: `${apiOrigin}/me` });
    await userEvent.click(screen.getByRole('button', { name: 'Call the API again' }));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });

  test('an API failure shows what it answered, and Try again loads again', async () => {
    let fail = true;
    const { auth, fetch } = withApi({ user: alice() }, async () =>
      fail
        ? Response.json({ error_description: 'token expired' }, { status: 401 })
        : Response.json(me),
    );
    renderAt('/dashboard', auth);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe('The data could not be loaded');
    expect(alert.textContent).toContain('The API answered 401: token expired');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    expect(fact('Subject')).toBe('alice');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  test('an unreachable API says so', async () => {
    const { auth } = withApi({ user: alice() }, async () => {
      throw new TypeError('Failed to fetch');
    });
    renderAt('/dashboard', auth);
    const alert = (await screen.findByRole('alert')).textContent;
    expect(alert).toContain('The service could not be reached.');
    // Words for the app's users, not for its developers.
    expect(alert).not.toMatch(/API|running/);
  });

  test("the auth client's own failure in a loader says what happened, and Try again loads again", async () => {
    // E.g. the client's code could not be downloaded: the session is intact, the call can be retried.
    let fail = true;
    const { auth, fetch } = withApi({ user: alice() }, async () => {
      if (fail) throw new AuthError('network', 'oidc-kit network: the engine did not load');
      return Response.json(me);
    });
    renderAt('/dashboard', auth);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe('The data could not be loaded');
    // describeSignInError's words (in development, the error's own message).
    expect(alert.textContent).toContain('the engine did not load');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  test('an answer that is not JSON (a wrong API URL) says so, with Try again', async () => {
    const { auth } = withApi(
      { user: alice() },
      async () => new Response('<!doctype html><p>Not the API</p>', { status: 200 }),
    );
    renderAt('/dashboard', auth);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The API answered with something other than JSON.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeDefined();
  });

  test('the profile lists the claims, the expiry and renews on demand', async () => {
    const auth = createMockAuthClient({ user: alice() });
    renderAt('/profile', auth);
    expect(await screen.findByRole('rowheader', { name: 'name' })).toBeDefined();
    const expiry = screen.getByText(/^Expires in/);
    expect(Number(/Expires in (\d+)/.exec(expiry.textContent ?? '')?.[1])).toBeGreaterThan(110);
    await userEvent.click(screen.getByRole('button', { name: 'Renew now' }));
    expect(auth.renew.calls).toHaveLength(1);
    // The mock, as the real client within 10 s of its last token request, gives the same tokens.
    expect((await screen.findByRole('status')).textContent).toContain('Not renewed');
  });

  test('Renew now that gets new tokens says nothing more: the expiry moves on', async () => {
    const auth = createMockAuthClient({ user: alice() });
    const renewed = createTestUser({ name: 'Alice Liddell', expiresIn: 7200 });
    const renew = Object.assign(
      async () => {
        auth.set({ user: renewed });
        return renewed;
      },
      { calls: [] },
    );
    renderAt('/profile', { ...auth, renew });
    await userEvent.click(await screen.findByRole('button', { name: 'Renew now' }));
    await vi.waitFor(() =>
      expect(
        Number(/Expires in (\d+)/.exec(screen.getByText(/^Expires in/).textContent ?? '')?.[1]),
      ).toBeGreaterThan(3600),
    );
    expect(screen.queryByText(/Not renewed/)).toBeNull();
  });

  test('a failed Renew now is shown once, by the banner, and the session is kept', async () => {
    const auth = createMockAuthClient({ user: alice() });
    const failed = new AuthError('renew_failed', 'The token endpoint answered 503.');
    // As the real client: a renewal that fails for a passing reason keeps the session, with the error.
    const renew = Object.assign(
      async () => {
        auth.set({ error: failed });
        throw failed;
      },
      { calls: [] },
    );
    renderAt('/profile', { ...auth, renew });
    await userEvent.click(await screen.findByRole('button', { name: 'Renew now' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your session could not be renewed just now');
    expect(within(alert).getByRole('button', { name: 'Dismiss' })).toBeDefined();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('rowheader', { name: 'name' })).toBeDefined();
  });

  test('a guarded page sends a signed-out user to sign in, once, and calls no API', async () => {
    const { auth, fetch } = withApi({ state: 'unauthenticated' }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    await vi.waitFor(() => expect(auth.signIn.calls).toEqual([[{ returnTo: '/dashboard' }]]));
    expect(fetch).not.toHaveBeenCalled();
  });

  test('after a failed sign-in a guarded page says what it needs, the banner how to retry', async () => {
    const { auth, fetch } = withApi({ state: 'error' }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeDefined();
    const main = screen.getByRole('main');
    expect(within(main).queryByRole('button')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Sign-in was cancelled.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toHaveLength(1);
    expect(fetch).not.toHaveBeenCalled();
  });

  test('once the failed sign-in is dismissed, the guarded page offers sign-in itself', async () => {
    const { auth } = withApi({ state: 'error' }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await userEvent.click(
      await within(screen.getByRole('main')).findByRole('button', { name: 'Sign in' }),
    );
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('a signed-in user without the role sees Forbidden, and the API is not called', async () => {
    const { auth, fetch } = withApi({ user: alice() }, async () => Response.json({}));
    renderAt('/admin', auth);
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeDefined();
    expect(fetch).not.toHaveBeenCalled();
    expect(auth.signIn.calls).toHaveLength(0);
  });

  test('a 403 for a requirement other than a role does not say a role is missing', async () => {
    const auth = createMockAuthClient({ user: alice() });
    const [root] = createRoutes(auth);
    // A product screen added as routes.tsx says: guarded in its loader (here by a scope), the
    // app's error page as its ErrorBoundary.
    root?.children?.push({
      path: 'orders',
      loader: requireAuth(auth, { scopes: ['orders:write'] }),
      element: <h1>Orders</h1>,
      ErrorBoundary: RouteErrorPage,
    });
    const router = createMemoryRouter(root ? [root] : [], { initialEntries: ['/orders'] });
    render(
      <MockAuthProvider client={auth}>
        <RouterProvider router={router} />
      </MockAuthProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeDefined();
    const page = screen.getByRole('main').textContent;
    expect(page).not.toMatch(/role/);
    expect(page).toContain('Your account does not have access to this page.');
  });

  test('an API that refuses the user (403) shows Forbidden with its reason, not Try again', async () => {
    // The guard let bob in on his ID token's roles; the API reads the access token's, and refuses.
    const { auth } = withApi({ user: bob() }, async () =>
      Response.json(
        { error: 'insufficient_scope', error_description: 'The admin role is required.' },
        { status: 403 },
      ),
    );
    renderAt('/admin', auth);
    await screen.findByText(/The admin role is required\./, {}, { timeout: 8000 });
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe('Forbidden');
    // Loading the same token again cannot change the answer.
    expect(within(main).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  test('the admin page shows the statistics and loads them again', async () => {
    let requests = 0;
    const { auth } = withApi({ user: bob() }, async () => {
      requests += 1;
      return Response.json({
        distinctUsers: 2,
        authenticatedRequests: requests,
        uptimeSeconds: 85,
      });
    });
    renderAt('/admin', auth);
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeDefined();
    expect(fact('Distinct users')).toBe('2');
    expect(fact('API uptime')).toBe('85 s');
    expect(fact('Authenticated requests')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'Load again' }));
    await vi.waitFor(() => expect(fact('Authenticated requests')).toBe('2'));
  });

  test('when the user signs out elsewhere, the open page is guarded again and the old data hidden', async () => {
    const { auth, fetch } = withApi({ user: alice() }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    act(() =>
      auth.set({
        state: 'unauthenticated',
        user: null,
        error: new AuthError('signed_out_elsewhere', 'You signed out in another tab.'),
        signOutReason: 'elsewhere',
      }),
    );
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).toBeNull();
    expect(screen.queryByText('alice')).toBeNull();
    // Guarded again: sign-in needed, and no redirect that could undo the sign-out.
    expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeDefined();
    expect(auth.signIn.calls).toEqual([]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('after a local-only sign-out on a guarded page, the page offers sign-in and does not redirect', async () => {
    const { auth } = withApi({ user: alice() }, async () => Response.json(me));
    renderAt('/profile', auth);
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeDefined();
    // A provider without end_session (Cognito, Google): signOut() ends the session locally.
    act(() => auth.set({ state: 'unauthenticated', user: null, signOutReason: 'user' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to continue' })).toBeDefined();
    expect(auth.signIn.calls).toEqual([]);
    await userEvent.click(
      within(screen.getByRole('main')).getByRole('button', { name: 'Sign in' }),
    );
    // No returnTo: the client returns to the current address.
    expect(auth.signIn.calls).toEqual([[{ returnTo: undefined, popup: undefined }]]);
  });

  test('a token renewal (same user) loads nothing again', async () => {
    const { auth, fetch } = withApi({ user: alice() }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeDefined();
    act(() => auth.set({ user: alice() }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeDefined();
  });

  test('signed-out and not-found pages', async () => {
    renderAt('/signed-out', createMockAuthClient({ state: 'unauthenticated' }));
    expect(await screen.findByRole('heading', { name: 'You are signed out' })).toBeDefined();
    document.body.innerHTML = '';
    renderAt('/nowhere', createMockAuthClient());
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeDefined();
  });
});

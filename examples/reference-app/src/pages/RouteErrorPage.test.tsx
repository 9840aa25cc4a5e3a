import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, test } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { MockAuthProvider, createMockAuthClient } from '@oidc-kit/react/testing';
import { requireAuth } from '@oidc-kit/react/react-router';
import { RouteErrorPage } from './RouteErrorPage';
import { createRoutes } from '../routes';
import { fact } from '../test/fact';
import { renderAt } from '../test/renderAt';
import { alice, bob, me } from '../test/users';
import { withApi } from '../test/withApi';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
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
});

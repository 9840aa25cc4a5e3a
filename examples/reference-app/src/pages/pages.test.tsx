import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '@oidc-kit/react/testing';
import type { MockAuthClient } from '@oidc-kit/react/testing';
import { Layout } from '../components/Layout';
import { AdminPage } from './AdminPage';
import { DashboardPage } from './DashboardPage';
import { HomePage } from './HomePage';
import { NotFoundPage } from './NotFoundPage';
import { ProfilePage } from './ProfilePage';
import { SignedOutPage } from './SignedOutPage';
import { Guard } from '../components/Guard';

afterEach(() => sessionStorage.clear());

function renderAt(path: string, auth: MockAuthClient, page: React.ReactNode) {
  const router = createMemoryRouter(
    [{ element: <Layout />, children: [{ path: '*', element: page }] }],
    { initialEntries: [path] },
  );
  return render(
    <MockAuthProvider client={auth}>
      <RouterProvider router={router} />
    </MockAuthProvider>,
  );
}

const alice = () => createTestUser({ name: 'Alice Liddell', roles: ['user'] });
const bob = () => createTestUser({ name: 'Bob Stone', roles: ['user', 'admin'] });

describe('the header', () => {
  test('signed out: a Sign in button and only the public link', async () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    renderAt('/', auth, <HomePage />);
    const header = screen.getByRole('banner');
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    await userEvent.click(
      Array.from(header.querySelectorAll('button')).find(
        (b) => b.textContent === 'Sign in',
      ) as HTMLElement,
    );
    expect(auth.signIn.calls).toEqual([[{ returnTo: undefined, popup: undefined }]]);
  });

  test('signed in: the name, Sign out, and the links the user may open', () => {
    renderAt('/', createMockAuthClient({ user: alice() }), <HomePage />);
    expect(screen.getByTestId('user-name').textContent).toBe('Alice Liddell');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
  });

  test('an admin also sees the Admin link', () => {
    renderAt('/', createMockAuthClient({ user: bob() }), <HomePage />);
    expect(screen.getByRole('link', { name: 'Admin' })).toBeDefined();
  });

  test('a cancelled sign-in shows a message with a working Try again', async () => {
    const auth = createMockAuthClient({ state: 'error' });
    renderAt('/', auth, <HomePage />);
    expect(screen.getByRole('alert').textContent).toContain('Sign-in was cancelled.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('an ended session says so', () => {
    const auth = createMockAuthClient({
      state: 'unauthenticated',
      error: new AuthError('signed_out_elsewhere', 'You signed out in another tab.'),
    });
    renderAt('/', auth, <HomePage />);
    expect(screen.getByRole('status').textContent).toContain('You signed out in another tab.');
  });
});

describe('pages', () => {
  test('the home page offers sign-in by redirect and in a popup', async () => {
    for (const [name, options] of [
      ['Sign in to get started', { returnTo: '/dashboard', popup: undefined }],
      ['Sign in in a popup', { returnTo: undefined, popup: true }],
    ] as const) {
      const auth = createMockAuthClient({ state: 'unauthenticated' });
      const { unmount } = renderAt('/', auth, <HomePage />);
      await userEvent.click(screen.getByRole('button', { name }));
      expect(auth.signIn.calls).toEqual([[options]]);
      unmount();
    }
  });

  test('the dashboard shows what the API answered', async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        sub: 'alice',
        name: 'Alice Liddell',
        roles: ['user'],
        scope: 'openid profile',
      }),
    );
    const auth = createMockAuthClient({
      user: alice(),
      fetch,
      apiOrigins: ['http://localhost:4001'],
    });
    renderAt('/dashboard', auth, <DashboardPage />);
    expect((await screen.findByTestId('api-sub')).textContent).toBe('alice');
    expect(fetch).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Call the API again' }));
    expect((await screen.findByTestId('api-calls')).textContent).toBe('2');
  });

  test('the dashboard shows an API failure', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ error_description: 'token expired' }, { status: 401 }),
    );
    renderAt(
      '/dashboard',
      createMockAuthClient({ user: alice(), fetch, apiOrigins: ['http://localhost:4001'] }),
      <DashboardPage />,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The API answered 401: token expired',
    );
  });

  test('the profile lists the claims, the expiry and renews on demand', async () => {
    const auth = createMockAuthClient({
      user: createTestUser({ name: 'Alice Liddell', expiresIn: 120 }),
    });
    renderAt('/profile', auth, <ProfilePage />);
    expect(screen.getByRole('rowheader', { name: 'name' })).toBeDefined();
    expect(Number(screen.getByTestId('seconds-left').textContent)).toBeGreaterThan(110);
    await userEvent.click(screen.getByRole('button', { name: 'Renew now' }));
    expect(auth.renew.calls).toHaveLength(1);
  });

  test('a guarded page sends a signed-out user to sign in, once', () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    renderAt(
      '/dashboard',
      auth,
      <Guard>
        <DashboardPage />
      </Guard>,
    );
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/', prompt: undefined }]]);
  });

  test('a signed-in user without the role sees Forbidden', () => {
    renderAt(
      '/admin',
      createMockAuthClient({ user: alice() }),
      <Guard roles={['admin']}>
        <p>stats</p>
      </Guard>,
    );
    expect(screen.getByRole('heading', { name: 'Forbidden' })).toBeDefined();
    expect(screen.queryByText('stats')).toBeNull();
  });

  test("the admin page shows the loader's statistics and loads them again", async () => {
    let calls = 0;
    const loader = vi.fn(() => {
      calls += 1;
      return { distinctUsers: 2, authenticatedRequests: calls, uptimeSeconds: 85 };
    });
    const router = createMemoryRouter([{ path: '/admin', loader, element: <AdminPage /> }], {
      initialEntries: ['/admin'],
    });
    render(
      <MockAuthProvider user={bob()}>
        <RouterProvider router={router} />
      </MockAuthProvider>,
    );
    expect((await screen.findByTestId('authenticated-requests')).textContent).toBe('1');
    expect(screen.getByText('Distinct users').nextElementSibling?.textContent).toBe('2');
    expect(screen.getByText('API uptime').nextElementSibling?.textContent).toBe('85 s');
    await userEvent.click(screen.getByRole('button', { name: 'Load again' }));
    expect(
      (await screen.findByText('2', { selector: '[data-testid="authenticated-requests"]' }))
        .textContent,
    ).toBe('2');
    expect(loader).toHaveBeenCalledTimes(2);
  });

  test('signed-out and not-found pages', () => {
    const { unmount } = renderAt(
      '/signed-out',
      createMockAuthClient({ state: 'unauthenticated' }),
      <SignedOutPage />,
    );
    expect(screen.getByRole('heading', { name: 'You are signed out' })).toBeDefined();
    unmount();
    renderAt('/nowhere', createMockAuthClient(), <NotFoundPage />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeDefined();
  });
});

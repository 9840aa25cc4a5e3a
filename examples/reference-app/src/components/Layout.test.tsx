import { act, render, screen, within } from '@testing-library/react';
import { Profiler } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { expect, test, vi } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '@oidc-kit/react/testing';
import { Layout } from './Layout';

/** The layout over one page, for `auth`. */
function renderLayout(
  auth: ReturnType<typeof createMockAuthClient>,
  children: RouteObject[] = [{ path: '*', element: <p>Page</p> }],
) {
  const router = createMemoryRouter([{ element: <Layout />, children }]);
  render(
    <MockAuthProvider client={auth}>
      <RouterProvider router={router} />
    </MockAuthProvider>,
  );
}

// The header reads only what it shows: a renewal (new tokens, same user) re-renders none of it.
test('the header does not re-render when the tokens are renewed', async () => {
  const alice = () => createTestUser({ name: 'Alice Liddell', sub: 'alice', roles: ['admin'] });
  const auth = createMockAuthClient({ user: alice() });
  const router = createMemoryRouter([
    { element: <Layout />, children: [{ path: '*', element: <p>Page</p> }] },
  ]);
  let commits = 0;
  render(
    <MockAuthProvider client={auth}>
      <Profiler id="layout" onRender={() => (commits += 1)}>
        <RouterProvider router={router} />
      </Profiler>
    </MockAuthProvider>,
  );
  expect(await screen.findByText('Alice Liddell')).toBeDefined();
  expect(screen.getByRole('link', { name: 'Admin' })).toBeDefined();
  const before = commits;

  for (let round = 0; round < 3; round += 1) act(() => auth.set({ user: alice() }));
  expect(commits).toBe(before);
});

test('the idle warning shows over any page, in the app’s look, and Stay keeps the session', async () => {
  const auth = createMockAuthClient({ user: createTestUser(), idleWarning: 45_000 });
  renderLayout(auth);
  const dialog = await screen.findByRole('alertdialog', { name: 'Are you still there?' });
  expect(dialog.className).not.toBe('');
  expect(dialog.textContent).toMatch(/signed out in 0:(44|45)\./);
  act(() => screen.getByRole('button', { name: 'Stay signed in' }).click());
  expect(auth.stayActive.calls).toHaveLength(1);
  expect(screen.queryByRole('alertdialog')).toBeNull();
});

test('a sign-out the provider could not complete says so, and offers to sign out again (not to sign in)', async () => {
  const auth = createMockAuthClient({
    state: 'unauthenticated',
    signOutReason: 'user',
    error: new AuthError('network', 'The identity provider could not be reached.'),
  });
  renderLayout(auth);
  const banner = await screen.findByRole('alert');
  expect(banner.textContent).toMatch(/signed out of this app/i);
  expect(banner.textContent).toMatch(/may still be signed in at the sign-in service/i);
  act(() => within(banner).getByRole('button', { name: 'Sign out again' }).click());
  expect(auth.signOut.calls).toHaveLength(1);
  expect(auth.signIn.calls).toHaveLength(0);
});

test('each page names itself in the title, and a navigation moves focus to its heading', async () => {
  const auth = createMockAuthClient({ user: createTestUser() });
  renderLayout(auth, [
    { index: true, element: <h1>Home</h1> },
    { path: 'dashboard', element: <h1>Dashboard</h1> },
  ]);
  await screen.findByRole('heading', { name: 'Home' });
  expect(document.title).toBe('Home · Acme Orders');
  // The first page keeps the browser's focus where it is.
  expect(document.activeElement).toBe(document.body);
  const link = screen.getByRole('link', { name: 'Dashboard' });
  link.focus();
  act(() => link.click());
  const heading = await screen.findByRole('heading', { name: 'Dashboard' });
  await vi.waitFor(() => expect(document.activeElement).toBe(heading));
  expect(document.title).toBe('Dashboard · Acme Orders');
  // A heading replaced in place (an error page, say) renames the document too.
  act(() => {
    heading.textContent = 'The data could not be loaded';
  });
  await vi.waitFor(() => expect(document.title).toBe('The data could not be loaded · Acme Orders'));
});

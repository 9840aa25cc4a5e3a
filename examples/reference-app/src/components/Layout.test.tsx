import { act, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { expect, test } from 'vitest';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '@oidc-kit/react/testing';
import { Layout } from './Layout';

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
  const router = createMemoryRouter([
    { element: <Layout />, children: [{ path: '*', element: <p>Page</p> }] },
  ]);
  render(
    <MockAuthProvider client={auth}>
      <RouterProvider router={router} />
    </MockAuthProvider>,
  );
  const dialog = await screen.findByRole('alertdialog', { name: 'Are you still there?' });
  expect(dialog.className).not.toBe('');
  expect(dialog.textContent).toMatch(/signed out in 0:(44|45)\./);
  act(() => screen.getByRole('button', { name: 'Stay signed in' }).click());
  expect(auth.stayActive.calls).toHaveLength(1);
  expect(screen.queryByRole('alertdialog')).toBeNull();
});

import { act, render, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import type { ReactNode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createHookHarness } from '../../test/support/hookHarness';
import { AuthProvider } from '../AuthProvider';
import { AuthError } from '../core/errors';
import { useUser } from '../hooks/useUser';
import { MockAuthProvider, createMockAuthClient } from '../testing';
import { Authorized } from './Authorized';
import { IdleWarning } from './IdleWarning';
import { RequireAuth } from './RequireAuth';
import { SignedIn } from './SignedIn';
import { SignedOut } from './SignedOut';
import { SignInButton } from './SignInButton';
import { SignOutButton } from './SignOutButton';

const hooks = createHookHarness();
afterEach(() => hooks.dispose());

/** `children` in a Profiler that counts its commits in `commits[id]`. */
function counter() {
  const commits: Record<string, number> = {};
  const counted = (id: string, children: ReactNode) => (
    <Profiler id={id} onRender={() => (commits[id] = (commits[id] ?? 0) + 1)}>
      {children}
    </Profiler>
  );
  return { commits, counted };
}

// One slice, one subscription: a renewal that changes nothing a component shows re-renders none.
test('the guard and the templates do not re-render when the tokens are renewed', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const client = await hooks.signedInClient();
  const { commits, counted } = counter();
  render(
    <AuthProvider client={client}>
      {counted(
        'RequireAuth',
        <RequireAuth roles={['user']}>
          <p>Report</p>
        </RequireAuth>,
      )}
      {counted(
        'RequireAuth with scopes and when',
        <RequireAuth scopes={['openid']} when={(user) => user.profile.sub === 'alice'}>
          <p>Orders</p>
        </RequireAuth>,
      )}
      {counted(
        'Authorized',
        <Authorized roles={['user']}>
          <p>User link</p>
        </Authorized>,
      )}
      {counted(
        'Authorized, denied',
        <Authorized roles={['admin']} fallback={<p>Admins only</p>}>
          <p>Admin link</p>
        </Authorized>,
      )}
      {counted(
        'SignedIn',
        <SignedIn>
          <p>Hello</p>
        </SignedIn>,
      )}
      {counted(
        'SignedOut',
        <SignedOut>
          <p>Sign in</p>
        </SignedOut>,
      )}
    </AuthProvider>,
  );
  await waitFor(() => expect(screen.getByText('Report')).toBeDefined());
  expect(screen.getByText('Orders')).toBeDefined();
  expect(screen.getByText('Admins only')).toBeDefined();
  const before = { ...commits };

  for (let round = 0; round < 3; round += 1) {
    const previous = client.getSnapshot().user;
    vi.setSystemTime(Date.now() + 11_000); // past the 10 s between token requests
    await act(() => client.renew());
    expect(client.getSnapshot().user).not.toBe(previous);
  }
  expect(commits).toEqual(before);
});

function Name() {
  return <p>{useUser()?.name}</p>;
}

// The idle warning's countdown re-renders the warning alone, once a second; an error reaches only
// what shows errors (the guard), not the user's readers, the templates or the buttons.
test("the idle warning's countdown and a new error re-render nothing that does not show them", () => {
  vi.useFakeTimers();
  const auth = createMockAuthClient({ state: 'authenticated' });
  const { commits, counted } = counter();
  render(
    <MockAuthProvider client={auth}>
      {counted('IdleWarning', <IdleWarning />)}
      {counted('useUser', <Name />)}
      {counted('SignedIn', <SignedIn>Hello</SignedIn>)}
      {counted('SignInButton', <SignInButton />)}
      {counted('SignOutButton', <SignOutButton />)}
      {counted('Authorized', <Authorized fallback="no access">Orders</Authorized>)}
      {counted('RequireAuth', <RequireAuth>Report</RequireAuth>)}
    </MockAuthProvider>,
  );
  const before = { ...commits };
  act(() => auth.setIdleWarning(60_000));
  expect(screen.getByRole('alertdialog')).toBeDefined();
  for (let second = 0; second < 5; second += 1) act(() => vi.advanceTimersByTime(1_000));
  act(() => auth.set({ error: new AuthError('renew_failed', 'The renewal failed.') }));

  // Opened, then once a second (StrictMode renders twice, commits once); the guard shows errors.
  expect(commits.IdleWarning).toBe((before.IdleWarning ?? 0) + 1 + 5);
  expect(commits.RequireAuth).toBe((before.RequireAuth ?? 0) + 1);
  const rest = (counts: Record<string, number>) =>
    Object.entries(counts).filter(([id]) => id !== 'IdleWarning' && id !== 'RequireAuth');
  expect(rest(commits)).toEqual(rest(before));
});

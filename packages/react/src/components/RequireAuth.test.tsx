import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { unhandledRejectionsDuring } from '../../test/support/unhandledRejections';
import { AuthContext } from '../authContext';
import { AuthError } from '../core/errors';
import { writeGuardAttempt } from '../core/guardAttempts';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '../testing';
import type { MockAuthClient } from '../testing';
import { RequireAuth } from './RequireAuth';

beforeEach(() => {
  sessionStorage.clear();
  writeGuardAttempt(null);
  history.replaceState(null, '', '/reports?year=2026');
});

function guard(
  auth: MockAuthClient,
  props: Partial<React.ComponentProps<typeof RequireAuth>> = {},
) {
  return render(
    <MockAuthProvider client={auth}>
      <RequireAuth {...props}>
        <p>Secret report</p>
      </RequireAuth>
    </MockAuthProvider>,
  );
}

const cancelled = new AuthError('provider_error', 'The identity provider answered access_denied.', {
  providerError: 'access_denied',
});
const loginRequired = new AuthError(
  'provider_error',
  'The identity provider answered login_required.',
  {
    providerError: 'login_required',
  },
);

describe('RequireAuth', () => {
  test('shows the fallback while loading, and starts nothing', () => {
    const auth = createMockAuthClient({ state: 'loading' });
    guard(auth);
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
    expect(screen.queryByText('Secret report')).toBeNull();
    expect(auth.signIn.calls).toEqual([]);
  });

  test('shows the children to a signed-in user', () => {
    guard(createMockAuthClient({ user: createTestUser() }));
    expect(screen.getByText('Secret report')).toBeDefined();
  });

  test('starts sign-in once (StrictMode) for a signed-out user, returning to the current location', () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    guard(auth);
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/reports?year=2026', prompt: undefined }]]);
    expect(screen.getByRole('status')).toBeDefined();
  });

  test.each(['user', 'elsewhere', 'expired', 'idle'] as const)(
    'a session that ended while the page was open (%s) is not signed in again by the guard',
    async (reason) => {
      // A provider without end_session (Cognito, Google) signs out locally only: a redirect now
      // would sign the user straight back in with the provider's session.
      const auth = createMockAuthClient({ user: createTestUser() });
      guard(auth);
      act(() => auth.set({ state: 'unauthenticated', user: null, signOutReason: reason }));
      expect(screen.queryByText('Secret report')).toBeNull();
      expect(auth.signIn.calls).toEqual([]);
      await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(auth.signIn.calls).toEqual([[{ returnTo: '/reports?year=2026' }]]);
    },
  );

  test('uses the returnTo prop when given', () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    guard(auth, { returnTo: '/elsewhere' });
    expect(auth.signIn.calls[0]?.[0]?.returnTo).toBe('/elsewhere');
  });

  test('a signed-in user without the role sees Forbidden, and is not sent to sign in', () => {
    const auth = createMockAuthClient({ user: createTestUser({ roles: ['user'] }) });
    guard(auth, { roles: ['admin', 'auditor'] });
    expect(screen.getByRole('alert', { name: 'Forbidden' })).toBeDefined();
    // Inside the app's page: no heading of its own, no link to a place the library cannot know.
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByText('Secret report')).toBeNull();
    expect(auth.signIn.calls).toEqual([]);
  });

  test('roles are any-of, scopes all-of, and when a predicate', () => {
    const user = createTestUser({ roles: ['auditor'], scope: 'openid reports:read' });
    const cases: [Partial<React.ComponentProps<typeof RequireAuth>>, boolean][] = [
      [{ roles: ['admin', 'auditor'] }, true],
      [{ scopes: ['reports:read'] }, true],
      [{ scopes: ['reports:read', 'reports:write'] }, false],
      [{ when: (subject) => subject.profile.email === user.profile.email }, true],
      [{ roles: ['auditor'], when: () => false }, false],
    ];
    for (const [props, allowed] of cases) {
      const { unmount } = guard(createMockAuthClient({ user }), props);
      expect(screen.queryByText('Secret report') !== null).toBe(allowed);
      unmount();
    }
  });

  test('after a failed sign-in shows the error and "Try again", with no second redirect', async () => {
    writeGuardAttempt({ returnTo: '/reports?year=2026', silent: false });
    const auth = createMockAuthClient({ state: 'error', error: cancelled });
    guard(auth);
    expect(screen.getByRole('alert', { name: 'Sign-in failed' })).toBeDefined();
    expect(screen.getByText('Sign-in was cancelled.')).toBeDefined();
    expect(auth.signIn.calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/reports?year=2026' }]]);
  });

  test('coming back signed out without an error after a redirect shows a button, not another redirect', async () => {
    writeGuardAttempt({ returnTo: '/reports?year=2026', silent: false });
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    guard(auth);
    expect(auth.signIn.calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('silent: tries prompt=none first, then interactive once, then shows the error', () => {
    const auth = createMockAuthClient({ state: 'unauthenticated' });
    const first = guard(auth, { silent: true });
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/reports?year=2026', prompt: 'none' }]]);
    first.unmount();

    // Back from the provider: no session there (login_required).
    auth.set({ state: 'error', error: loginRequired });
    const second = guard(auth, { silent: true });
    expect(auth.signIn.calls[1]).toEqual([{ returnTo: '/reports?year=2026', prompt: undefined }]);
    second.unmount();

    // Back again with a failure: the error shows, and no third redirect.
    auth.set({ state: 'error', error: loginRequired });
    guard(auth, { silent: true });
    expect(auth.signIn.calls).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeDefined();
  });

  test('an expired session stays without a redirect once its error is dismissed', async () => {
    const auth = createMockAuthClient({
      state: 'unauthenticated',
      signOutReason: 'expired',
      error: new AuthError('session_expired', 'The session ended at the provider.'),
    });
    guard(auth);
    act(() => auth.dismissError());
    await act(async () => undefined);
    expect(auth.signIn.calls).toEqual([]);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDefined();
  });

  test('a client whose signIn() rejects: neither the redirect nor "Try again" leaves it unhandled', async () => {
    const failure = new Error('The sign-in service is down.');
    const signedOut = { ...createMockAuthClient(), signIn: () => Promise.reject(failure) };
    const failed = {
      ...createMockAuthClient({ state: 'error', error: cancelled }),
      signIn: () => Promise.reject(failure),
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const leaked = await unhandledRejectionsDuring(async () => {
      render(
        <AuthContext.Provider value={signedOut}>
          <RequireAuth>Secret report</RequireAuth>
        </AuthContext.Provider>,
      );
      await act(async () => undefined);
      render(
        <AuthContext.Provider value={failed}>
          <RequireAuth>Secret report</RequireAuth>
        </AuthContext.Provider>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    });
    expect(leaked).toEqual([]);
    expect(logged.mock.calls).toEqual([[failure], [failure]]);
  });

  test('signing in clears the attempt, so a later expiry redirects again', () => {
    writeGuardAttempt({ returnTo: '/reports?year=2026', silent: false });
    const auth = createMockAuthClient({ user: createTestUser() });
    const { unmount } = guard(auth);
    unmount();
    auth.set({ state: 'unauthenticated', user: null });
    guard(auth);
    expect(auth.signIn.calls).toHaveLength(1);
  });

  test('takes custom fallback, forbidden and error renderings', () => {
    const loading = guard(createMockAuthClient({ state: 'loading' }), { fallback: <p>Wait</p> });
    expect(screen.getByText('Wait')).toBeDefined();
    loading.unmount();
    const denied = guard(createMockAuthClient({ user: createTestUser() }), {
      roles: ['admin'],
      forbidden: <p>No entry</p>,
    });
    expect(screen.getByText('No entry')).toBeDefined();
    denied.unmount();
    writeGuardAttempt({ returnTo: '/reports?year=2026', silent: false });
    guard(createMockAuthClient({ state: 'error', error: cancelled }), {
      error: (error, retry) => (
        <button type="button" onClick={retry}>
          {error.code}: retry
        </button>
      ),
    });
    expect(screen.getByRole('button', { name: 'provider_error: retry' })).toBeDefined();
  });
});

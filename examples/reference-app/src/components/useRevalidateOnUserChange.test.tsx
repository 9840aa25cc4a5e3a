import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { createTestUser } from '@oidc-kit/react/testing';

const bobClaims = { name: 'Bob Stone', sub: 'bob' };
import { renderAt } from '../test/renderAt';
import { alice, bob, me } from '../test/users';
import { withApi } from '../test/withApi';

afterEach(() => sessionStorage.clear());

describe('pages', () => {
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

  test('a renewal that takes a role away guards the open page again: Forbidden, no redirect', async () => {
    const stats = { distinctUsers: 2, authenticatedRequests: 1, uptimeSeconds: 85 };
    const { auth, fetch } = withApi({ user: bob() }, async () => Response.json(stats));
    renderAt('/admin', auth);
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeDefined();
    // The same user, renewed without the admin role (revoked at the provider).
    act(() => auth.set({ user: createTestUser({ ...bobClaims, roles: ['user'] }) }));
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeDefined();
    expect(screen.queryByText('Distinct users')).toBeNull();
    expect(auth.signIn.calls).toEqual([]);
    expect(fetch).toHaveBeenCalledTimes(1);
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
});

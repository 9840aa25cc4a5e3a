import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { AuthError } from '@oidc-kit/react';
import { createMockAuthClient } from '@oidc-kit/react/testing';
import { renderAt } from './test/renderAt';
import { alice, bob, me } from './test/users';
import { withApi } from './test/withApi';

afterEach(() => sessionStorage.clear());

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
  test('a guarded page sends a signed-out user to sign in, once, and calls no API', async () => {
    const { auth, fetch } = withApi({ state: 'unauthenticated' }, async () => Response.json(me));
    renderAt('/dashboard', auth);
    await vi.waitFor(() => expect(auth.signIn.calls).toEqual([[{ returnTo: '/dashboard' }]]));
    expect(fetch).not.toHaveBeenCalled();
  });

  test('signed-out and not-found pages', async () => {
    renderAt('/signed-out', createMockAuthClient({ state: 'unauthenticated' }));
    expect(await screen.findByRole('heading', { name: 'You are signed out' })).toBeDefined();
    document.body.innerHTML = '';
    renderAt('/nowhere', createMockAuthClient());
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeDefined();
  });
});

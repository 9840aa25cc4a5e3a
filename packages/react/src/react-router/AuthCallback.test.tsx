import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHookHarness } from '../../test/support/hookHarness';
import { unhandledRejectionsDuring } from '../../test/support/unhandledRejections';
import { AuthProvider } from '../AuthProvider';
import { AuthContext } from '../authContext';
import { MockAuthProvider, createMockAuthClient, createTestUser } from '../testing';
import { AuthCallback } from './AuthCallback';

const hooks = createHookHarness();
afterEach(() => {
  hooks.dispose();
  history.replaceState(null, '', '/');
});

describe('AuthCallback', () => {
  test('outside AuthProvider it throws a config_invalid AuthError, naming itself and the fix, for a router whose loaders hold the client too', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const renderAlone = () =>
      render(
        <MemoryRouter>
          <AuthCallback />
        </MemoryRouter>,
      );
    expect(renderAlone).toThrow(
      /^AuthCallback\(\) must be used inside <AuthProvider>\. Wrap your app in/,
    );
    expect(renderAlone).toThrow(
      /<AuthProvider client=\{\.\.\.\}> with the AuthClient your router's loaders use/,
    );
    expect(renderAlone).toThrow(
      expect.objectContaining({ name: 'AuthError', code: 'config_invalid', field: 'AuthCallback' }),
    );
  });

  test('shows progress while the callback is processed', () => {
    render(
      <MockAuthProvider state="signing-in">
        <MemoryRouter>
          <AuthCallback />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
  });

  test('a response no client took out of the address bar shows the error, not endless progress', () => {
    history.replaceState(null, '', '/callback?code=xyz&state=abc');
    render(
      <MockAuthProvider state="error">
        <MemoryRouter initialEntries={['/callback?code=xyz&state=abc']}>
          <AuthCallback />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Sign-in was cancelled.');
  });

  test('shows a failed sign-in with a working "Try again"', async () => {
    const auth = createMockAuthClient({ state: 'error' });
    render(
      <MockAuthProvider client={auth}>
        <MemoryRouter>
          <AuthCallback home="/start" />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByText('Sign-in was cancelled.')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/start' }]]);
  });

  test('under a basename, "Try again" and the link home both go to the app\'s home', async () => {
    const auth = createMockAuthClient({ state: 'error' });
    const { rerender } = render(
      <MockAuthProvider client={auth}>
        <MemoryRouter basename="/app" initialEntries={['/app/callback']}>
          <AuthCallback home="/start?tab=1" />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/app/start?tab=1' }]]);
    auth.set({ state: 'unauthenticated' });
    rerender(
      <MockAuthProvider client={auth}>
        <MemoryRouter basename="/app" initialEntries={['/app/callback']}>
          <AuthCallback home="/start?tab=1" />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe(
      '/app/start?tab=1',
    );
  });

  test('`error` replaces the failure view: a node, or a function given the error and "Try again"', async () => {
    const auth = createMockAuthClient({ state: 'error' });
    const { rerender } = render(
      <MockAuthProvider client={auth}>
        <MemoryRouter>
          <AuthCallback error={<p>You are not signed in.</p>} />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByText('You are not signed in.')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    rerender(
      <MockAuthProvider client={auth}>
        <MemoryRouter>
          <AuthCallback
            home="/start"
            error={(error, retry) => (
              <button type="button" onClick={retry}>
                Again after {error.code}
              </button>
            )}
          />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Again after provider_error' }));
    expect(auth.signIn.calls).toEqual([[{ returnTo: '/start' }]]);
  });

  test('a client whose signIn() rejects: "Try again" logs it in development, never unhandled', async () => {
    const failure = new Error('The sign-in service is down.');
    const auth = createMockAuthClient({ state: 'error' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const leaked = await unhandledRejectionsDuring(async () => {
      render(
        <AuthContext.Provider value={{ ...auth, signIn: () => Promise.reject(failure) }}>
          <MemoryRouter>
            <AuthCallback />
          </MemoryRouter>
        </AuthContext.Provider>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    });
    expect(leaked).toEqual([]);
    expect(logged).toHaveBeenCalledWith(failure);
  });

  test.each([
    ['/callback?error=access_denied&state=abc', 'error'],
    ['/callback?code=xyz&state=abc', 'authenticated'],
    ['/callback?state=abc&code=xyz&iss=x', 'unauthenticated'],
  ] as const)('on %s, shows progress even once %s: the client is moving on', (entry, state) => {
    render(
      <MockAuthProvider state={state}>
        <MemoryRouter initialEntries={[entry]}>
          <AuthCallback />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test.each([
    '/callback?code=xyz',
    '/callback?state=abc',
    '/callback#code=xyz&state=abc',
    // Still in the address bar: no client took it (e.g. /callback/ is not the redirect_uri).
    '/callback/?code=xyz&state=abc',
  ])('on %s, not a response the client processes, it does not wait: a link home', (entry) => {
    history.replaceState(null, '', entry);
    render(
      <MockAuthProvider state="unauthenticated">
        <MemoryRouter initialEntries={[entry]}>
          <AuthCallback />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/');
  });

  test('with nothing to finish, offers a link home', () => {
    render(
      <MockAuthProvider user={createTestUser()}>
        <MemoryRouter>
          <AuthCallback />
        </MemoryRouter>
      </MockAuthProvider>,
    );
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/');
  });

  // It reads the status, the error and signIn: a renewal changes none of them.
  test('does not re-render when the tokens are renewed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await hooks.signedInClient();
    let commits = 0;
    render(
      <StrictMode>
        <AuthProvider client={client}>
          <Profiler id="AuthCallback" onRender={() => (commits += 1)}>
            <MemoryRouter initialEntries={['/callback']}>
              <AuthCallback />
            </MemoryRouter>
          </Profiler>
        </AuthProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByRole('link', { name: 'Continue' })).toBeDefined());
    const before = commits;

    for (let round = 0; round < 3; round += 1) {
      const previous = client.getSnapshot().user;
      vi.setSystemTime(Date.now() + 11_000); // past the 10 s between token requests
      await act(() => client.renew());
      expect(client.getSnapshot().user).not.toBe(previous);
    }
    expect(commits).toBe(before);
  });
});

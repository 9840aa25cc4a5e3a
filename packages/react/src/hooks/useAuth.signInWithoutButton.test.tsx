import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import type { ReactElement } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createHarness } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { AuthProvider } from '../AuthProvider';
import type { AuthClient } from '../core/AuthClient';
import { useAuth } from './useAuth';

let harness: Harness;
afterEach(() => {
  harness?.dispose();
  vi.restoreAllMocks();
});

/** Sign-in without a button, as the README's `useAuth()` entry and the warning advise it. */
function SignInWhenSignedOut() {
  const { status, isLoading, isAuthenticated, error, signIn } = useAuth();
  useEffect(() => {
    if (!isLoading && !isAuthenticated && !error) void signIn();
  }, [isLoading, isAuthenticated, error, signIn]);
  return <p aria-label="status">{status}</p>;
}

/** The app (`App`, the advised one unless given) on the page it is at, with `client.signIn` counted. */
function renderApp(client: AuthClient, App: () => ReactElement = SignInWhenSignedOut) {
  const signIn = vi.spyOn(client, 'signIn');
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  render(
    <StrictMode>
      <AuthProvider client={client}>
        <App />
      </AuthProvider>
    </StrictMode>,
  );
  const status = () => screen.getByLabelText('status').textContent;
  return { signIn, warn, status };
}

test('the advised sign-in without a button signs in when signed out, once, with no warning', async () => {
  harness = createHarness();
  const signedOut = renderApp(harness.createClient());
  await waitFor(() => expect(signedOut.signIn).toHaveBeenCalledTimes(1));
  expect(signedOut.warn).not.toHaveBeenCalled();
});

test('on the callback page of a sign-in that succeeds, it waits for it: no sign-in again, no warning', async () => {
  harness = createHarness();
  await harness.landOnCallback({ returnTo: '/orders' });
  const landing = renderApp(harness.createClient());
  await waitFor(() => expect(landing.status()).toBe('authenticated'));
  expect(landing.signIn).not.toHaveBeenCalled();
  expect(landing.warn).not.toHaveBeenCalled();
});

test('after a failed sign-in it leaves the error on the page: no sign-in again (a loop), no warning', async () => {
  harness = createHarness();
  // The user cancels at the provider: the callback page gets `error=access_denied`. A provider
  // that refuses with no one to ask (a policy, a wrong scope) answers so at once, every time.
  await harness.landOnCallback({ returnTo: '/orders', error: 'access_denied' });
  const landing = renderApp(harness.createClient());
  // The callback has ended (it moves the app to the return path last); then React has rendered it.
  await waitFor(() => expect(harness.navigations).toEqual(['/orders']));
  await act(async () => undefined);
  expect(landing.signIn).not.toHaveBeenCalled();
  expect(landing.status()).toBe('error');
  expect(landing.warn).not.toHaveBeenCalled();
});

/** The first-hour mistake: signs in whenever it is not signed in, `isLoading` (and `error`) unread. */
function SignInWheneverSignedOut() {
  const { status, isAuthenticated, signIn } = useAuth();
  useEffect(() => {
    if (!isAuthenticated) void signIn();
  }, [isAuthenticated, signIn]);
  return <p aria-label="status">{status}</p>;
}

test('the mistake, isLoading unread, on the callback page: its sign-in joins the callback, no second authorize, signed in', async () => {
  harness = createHarness();
  await harness.landOnCallback({ returnTo: '/orders' });
  const before = harness.redirects.length;
  const { signIn, warn, status } = renderApp(harness.createClient(), SignInWheneverSignedOut);
  await waitFor(() => expect(signIn).toHaveBeenCalled());
  // Every sign-in it asked for has settled (a sign-in that leaves never does), or the page left.
  let settled = false;
  void Promise.all(signIn.mock.results.map((result) => result.value)).then(() => (settled = true));
  await waitFor(() => expect(settled || harness.redirects.length > before).toBe(true));
  expect(harness.redirects.slice(before)).toEqual([]);
  expect(status()).toBe('authenticated');
  expect(harness.navigations).toEqual(['/orders']);
  // Still a mistake (a failed sign-in would leave again): development still says so.
  expect(warn).toHaveBeenCalledTimes(1);
});

import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { afterEach, describe, expect, test } from 'vitest';
import { createHarness } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { AuthProvider, useAuth } from '@oidc-kit/react';
import { AuthCallback } from './AuthCallback';

let harness: Harness;
let observer: MutationObserver | undefined;
afterEach(() => {
  observer?.disconnect();
  harness?.dispose();
});

function Dashboard() {
  const { status, error } = useAuth();
  return (
    <p aria-label="dashboard">
      {status}
      {error ? ` (${error.code})` : ''}
    </p>
  );
}

/** Every text the callback route ever showed, however briefly. */
function watchCallbackTexts(): string[] {
  const seen: string[] = [];
  observer = new MutationObserver(() => {
    const shown = document.querySelector('[data-route="callback"]')?.textContent;
    if (shown) seen.push(shown);
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return seen;
}

/** Signs in at the fake provider (or cancels there) and renders the app on the callback URL. */
async function landOnCallback(navigation: 'default' | 'router', error?: string) {
  harness = createHarness();
  const waiting = harness.nextRedirect();
  void harness.createClient().signIn({ returnTo: '/dashboard' });
  history.replaceState(null, '', harness.provider.authorize(await waiting, undefined, error));
  // The default navigation (replaceState and popstate, which React Router follows), or the router's.
  const client = harness.createClient({
    environment: {
      navigate:
        navigation === 'router'
          ? (path) => void router.navigate(path, { replace: true })
          : undefined,
    },
  });
  const router = createBrowserRouter([
    {
      path: '/callback',
      element: (
        <div data-route="callback">
          <AuthCallback />
        </div>
      ),
    },
    { path: '/dashboard', element: <Dashboard /> },
  ]);
  const seen = watchCallbackTexts();
  render(
    <AuthProvider client={client}>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
  return { seen, router };
}

describe.each(['default', 'router'] as const)('AuthCallback with %s navigation', (navigation) => {
  test('a cancelled sign-in shows progress until the return path explains the failure', async () => {
    const { seen, router } = await landOnCallback(navigation, 'access_denied');
    await waitFor(() =>
      expect(screen.getByLabelText('dashboard').textContent).toBe('error (provider_error)'),
    );
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['Checking your session…']));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('a successful sign-in never flashes "nothing left to finish"', async () => {
    const { seen, router } = await landOnCallback(navigation);
    await waitFor(() =>
      expect(screen.getByLabelText('dashboard').textContent).toBe('authenticated'),
    );
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['Checking your session…']));
  });
});

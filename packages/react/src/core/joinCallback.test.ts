import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness, recordStatuses } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import type { SignInOptions } from './clientOptions';

let harness: Harness;
afterEach(() => harness?.dispose());

/**
 * Resolves once `signingIn` has settled or the page has left for the provider again, whichever
 * comes first: then "it did not leave" holds (a sign-in that leaves never settles).
 */
async function settledOrLeft(signingIn: Promise<void>, redirectsBefore: number): Promise<void> {
  let settled = false;
  void signingIn.then(() => (settled = true));
  await vi.waitFor(
    () => {
      if (!settled && harness.redirects.length === redirectsBefore) throw new Error('neither yet');
    },
    { timeout: 5000 },
  );
}

// An app that signs in whenever it is not signed in, `isLoading` unread, asks on the callback page
// too. Leaving for the provider then, before this sign-in ends, comes back with a new code to the
// same page, which asks again: a loop. Production builds included: it must not leave.
describe('a sign-in asked for on the page that completes one, in production', () => {
  test('asked before start() (a child effect runs before AuthProvider’s), it joins: no second authorize', async () => {
    harness = createHarness();
    vi.stubEnv('NODE_ENV', 'production');
    await harness.landOnCallback({ returnTo: '/orders' });
    const before = harness.redirects.length;
    const landing = harness.createClient();
    const signingIn = landing.signIn();
    void landing.start();
    await settledOrLeft(signingIn, before);
    expect(harness.redirects.slice(before)).toEqual([]);
    expect(landing.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    // The user already goes where the callback sends them.
    expect(harness.navigations).toEqual(['/orders']);
    expect(harness.provider.count('token')).toBe(1);
  });

  test('asked while the code exchange is under way, a popup or one with a returnTo joins too: no popup, the callback’s path', async () => {
    harness = createHarness();
    vi.stubEnv('NODE_ENV', 'production');
    await harness.landOnCallback({ returnTo: '/orders' });
    const before = harness.redirects.length;
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const landing = harness.createClient();
    void landing.start();
    expect(landing.getSnapshot().status).toBe('signing-in');
    const options = { returnTo: '/elsewhere', ui_locales: 'fr' };
    const redirect = landing.signIn(options);
    const popup = landing.signIn({ ...options, popup: true, prompt: 'none' });
    await settledOrLeft(
      Promise.all([redirect, popup]).then(() => undefined),
      before,
    );
    expect(harness.redirects.slice(before)).toEqual([]);
    expect(open).not.toHaveBeenCalled();
    expect(landing.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    expect(harness.navigations).toEqual(['/orders']);
  });
});

describe('a sign-in that waits for the callback, then leaves as it did before', () => {
  test('when the callback failed: the sign-in leaves once the failure has landed', async () => {
    harness = createHarness();
    await harness.landOnCallback({ returnTo: '/orders', error: 'access_denied' });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const landing = harness.createClient();
    const statuses = recordStatuses(landing);
    const leaving = harness.nextRedirect();
    void landing.signIn();
    void landing.start();
    await leaving;
    // The callback ended first (it moves the app to the return path last): one sign-in at a time.
    expect(harness.navigations).toEqual(['/orders']);
    expect(statuses).toEqual(['loading', 'signing-in', 'error', 'signing-in']);
  });

  // What the new session may lack: the login screen again, another account, a scope, an acr.
  test.each<SignInOptions>([
    { prompt: 'login' },
    { login_hint: 'bob' },
    { extraQueryParams: { acr_values: 'mfa' } },
  ])(
    'when it asks for more than the session has (%o): it leaves after the callback, as a step-up',
    async (options) => {
      harness = createHarness();
      await harness.landOnCallback({ returnTo: '/orders' });
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const landing = harness.createClient();
      const statuses = recordStatuses(landing);
      const leaving = harness.nextRedirect();
      void landing.signIn(options);
      void landing.start();
      const authorize = new URL(await leaving);
      expect(harness.navigations).toEqual(['/orders']);
      // Signed in by the callback first: a failed step-up keeps that session (rule 6).
      expect(statuses).toEqual(['loading', 'signing-in', 'authenticated', 'signing-in']);
      expect(harness.provider.count('token')).toBe(1);
      const [name, value] = Object.entries(options.extraQueryParams ?? options)[0] as [
        string,
        string,
      ];
      expect(authorize.searchParams.get(name)).toBe(value);
    },
  );
});

import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { AuthClient } from './AuthClient';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { canTransition } from './authState';
import {
  addressHasAuthParams,
  appOrigin,
  createHarness,
  landInPopup,
  newStorage,
  recordStatuses,
  storageText,
  storedUsers,
  stubPopup,
} from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { fakeTimeForFloor, passTokenFloor } from '../../test/support/passTokenFloor';

let harness: Harness;
afterEach(() => harness?.dispose());

describe('sign-in by redirect', () => {
  test('starts at the provider with PKCE S256, a nonce, state and the extra parameters', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    const waiting = harness.nextRedirect();
    void client.signIn({
      returnTo: '/orders',
      prompt: 'login',
      login_hint: 'alice',
      ui_locales: 'fr',
      extraQueryParams: { kc_idp_hint: 'github' },
    });
    const url = new URL(await waiting);
    expect(client.getSnapshot().status).toBe('signing-in');
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.provider.issuer}/authorize`);
    const params = url.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('nonce')).toMatch(/^[0-9a-f]{32}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('scope')).toBe('openid profile email');
    expect(params.get('prompt')).toBe('login');
    expect(params.get('login_hint')).toBe('alice');
    expect(params.get('ui_locales')).toBe('fr');
    expect(params.get('kc_idp_hint')).toBe('github');
  });

  test('the callback signs in, cleans the address and lands on returnTo', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), {
      returnTo: '/orders?id=7',
      storage,
    });
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('authenticated');
    expect(snapshot.user?.profile.name).toBe('Alice Liddell');
    expect(snapshot.error).toBeNull();
    expect(addressHasAuthParams()).toBe(false);
    expect(location.pathname).toBe('/callback');
    expect(harness.navigations).toEqual(['/orders?id=7']);
    expect(storedUsers(storage)).toHaveLength(1);
    expect(harness.provider.count('token')).toBe(1);
  });

  test('a hostile returnTo lands on / instead', async () => {
    harness = createHarness();
    await harness.signIn(harness.createClient(), { returnTo: '//evil.example/phish' });
    expect(harness.navigations).toEqual(['/']);
  });

  test('signIn defaults returnTo to the current location', async () => {
    harness = createHarness();
    history.replaceState(null, '', '/reports?year=2026#q3');
    const client = harness.createClient();
    await harness.signIn(client);
    expect(harness.navigations).toEqual(['/reports?year=2026#q3']);
  });

  test('signIn started on the redirect_uri page returns to /, not to the callback page', async () => {
    harness = createHarness();
    // E.g. "Try again" or Sign in on the callback page after a failed sign-in.
    history.replaceState(null, '', '/callback');
    await harness.signIn(harness.createClient());
    expect(harness.navigations).toEqual(['/']);
  });

  test('a router that moved off the callback before the client started: the sign-in still completes', async () => {
    harness = createHarness();
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn({ returnTo: '/orders' });
    const callbackUrl = harness.provider.authorize(await waiting);
    // The page loaded on the response; the app's catch-all route (`<Navigate to="/" replace />`)
    // replaced the address before the engine's chunk had loaded.
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { name: callbackUrl, entryType: 'navigation' } as PerformanceEntry,
    ]);
    history.replaceState(null, '', '/');
    const client = harness.createClient();
    await client.start();
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(harness.provider.count('token')).toBe(1);
    expect(harness.navigations).toEqual(['/orders']);
  });

  test('a page that loaded on a response it already handled does not handle it again', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { callbackUrl } = await harness.signIn(harness.createClient(), {
      returnTo: '/orders',
      storage,
    });
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { name: callbackUrl, entryType: 'navigation' } as PerformanceEntry,
    ]);
    // Another client on the same page later (a provider remounted with a new `key`).
    history.replaceState(null, '', '/orders');
    const later = harness.createClient({ storage });
    await later.start();
    expect(later.getSnapshot().status).toBe('authenticated');
    expect(later.getSnapshot().error).toBeNull();
    expect(harness.provider.count('token')).toBe(1);
    expect(harness.navigations).toEqual(['/orders']);
  });

  test('back from the provider without signing in: nothing to handle, the page stays', async () => {
    harness = createHarness();
    history.replaceState(null, '', '/orders');
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    await waiting;
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
      { name: `${appOrigin}/orders`, entryType: 'navigation' } as PerformanceEntry,
    ]);
    const client = harness.createClient();
    await client.start();
    expect(client.getSnapshot()).toMatchObject({ status: 'unauthenticated', error: null });
    expect(harness.provider.count('token')).toBe(0);
    expect(harness.navigations).toEqual([]);
  });

  test('a reload with a stored session restores it without asking the provider', async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient(), { storage });
    history.replaceState(null, '', '/dashboard');
    const before = harness.provider.requests.length;
    const reloaded = harness.createClient({ storage });
    const statuses = recordStatuses(reloaded);
    await reloaded.start();
    expect(statuses).toEqual(['loading', 'authenticated']);
    expect(reloaded.getSnapshot().user?.profile.sub).toBe('alice');
    expect(harness.provider.requests.length).toBe(before);
  });

  test('with no session anywhere the client settles unauthenticated', async () => {
    harness = createHarness();
    const client = harness.createClient();
    const statuses = recordStatuses(client);
    await client.start();
    expect(statuses).toEqual(['loading', 'unauthenticated']);
    expect(client.getSnapshot()).toEqual({
      status: 'unauthenticated',
      user: null,
      error: null,
      signOutReason: null,
    });
  });

  test('start() and the snapshot are stable: one run, the same object while nothing changes', async () => {
    harness = createHarness();
    const client = harness.createClient();
    const first = client.start();
    expect(client.start()).toBe(first);
    await first;
    expect(client.getSnapshot()).toBe(client.getSnapshot());
    expect(Object.isFrozen(client.getSnapshot())).toBe(true);
  });

  test(`the redirect_uri default origin is the page's (${appOrigin})`, () => {
    harness = createHarness();
    expect(harness.createClient().config.apiOrigins).toEqual(['https://api.example.test']);
  });
});

describe('sign-in in a popup', () => {
  test.each(['settings', 'a ready-made UserManager'] as const)(
    'a popup on its own popup_redirect_uri route is processed and handed to the opener (%s)',
    async (variant) => {
      harness = createHarness();
      const config = { popup_redirect_uri: `${appOrigin}/popup-callback` };
      const { popup, authorizeUrl } = stubPopup();
      const signingIn = harness.createClient({ config }).signIn({ popup: true });
      const callback = harness.provider.authorize(await authorizeUrl());
      expect(new URL(callback).pathname).toBe('/popup-callback');

      // The popup window loads the app on that route.
      const { handedOver } = landInPopup(callback);
      const storage = newStorage();
      const inPopup =
        variant === 'settings'
          ? harness.createClient({ config, storage })
          : new AuthClient(
              {
                userManager: new UserManager({
                  authority: harness.provider.issuer,
                  client_id: 'app',
                  redirect_uri: `${appOrigin}/callback`,
                  ...config,
                  userStore: new WebStorageStateStore({ store: storage }),
                  stateStore: new WebStorageStateStore({ store: localStorage }),
                }),
              },
              { navigate: () => undefined, createChannel: () => null },
            );
      await inPopup.start();
      expect(handedOver()).toEqual([callback]);
      inPopup.dispose();
      popup.closed = true;
      await signingIn;
    },
  );
});

describe('the state machine', () => {
  test('canTransition follows the states table', () => {
    expect(canTransition('loading', 'authenticated')).toBe(true);
    expect(canTransition('signing-out', 'authenticated')).toBe(false);
    expect(canTransition('signing-out', 'unauthenticated')).toBe(true);
    expect(canTransition('unauthenticated', 'error')).toBe(false);
    expect(canTransition('authenticated', 'loading')).toBe(false);
    for (const status of [
      'signing-in',
      'authenticated',
      'signing-out',
      'unauthenticated',
      'error',
    ] as const) {
      expect(canTransition(status, 'loading')).toBe(false);
    }
  });

  test('sign in, renew, sign out: loading → unauthenticated → signing-in … → authenticated → signing-out → unauthenticated', async () => {
    harness = createHarness();
    const starter = harness.createClient();
    const starterStatuses = recordStatuses(starter);
    await starter.start();
    const { client } = await harness.signIn(starter);
    expect(starterStatuses).toEqual(['loading', 'unauthenticated', 'signing-in']);

    await passTokenFloor();
    const statuses = recordStatuses(client);
    const renewed = await client.renew();
    expect(renewed).not.toBeNull();
    expect(client.getSnapshot().user).toBe(renewed);
    await client.signOut({ redirect: false });
    expect(statuses).toEqual(['authenticated', 'authenticated', 'signing-out', 'unauthenticated']);
  });

  async function landOnCancelledSignIn() {
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    const callback = harness.provider.authorize(await waiting, undefined, 'access_denied');
    history.replaceState(null, '', callback);
    const client = harness.createClient();
    const statuses = recordStatuses(client);
    await client.start();
    return { client, statuses };
  }

  test('a failed sign-in → error, then retry → signing-in', async () => {
    harness = createHarness();
    const { client, statuses } = await landOnCancelledSignIn();
    const retry = harness.nextRedirect();
    void client.signIn();
    await retry;
    expect(statuses).toEqual(['loading', 'signing-in', 'error', 'signing-in']);
  });

  test('a failed sign-in → error, then dismiss → unauthenticated', async () => {
    harness = createHarness();
    const { client, statuses } = await landOnCancelledSignIn();
    client.dismissError();
    expect(statuses).toEqual(['loading', 'signing-in', 'error', 'unauthenticated']);
    expect(client.getSnapshot().error).toBeNull();
  });

  test('the renewal timer renews before the access token expires', async () => {
    // A lifetime that leaves room for rule 5's floor: half of it left at the floor's end.
    fakeTimeForFloor();
    harness = createHarness({ accessTokenTtl: 20 });
    const { client } = await harness.signIn(harness.createClient());
    const first = client.getSnapshot().user;
    await passTokenFloor();
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1), { timeout: 3000 });
    await vi.waitFor(() =>
      expect(client.getSnapshot().user?.access_token).not.toBe(first?.access_token),
    );
    const [exchange, refresh] = harness.provider.tokenRequestTimes();
    expect(refresh).toBeLessThan((first?.expires_at as number) * 1000);
    expect((refresh as number) - (exchange as number)).toBeGreaterThanOrEqual(10_000);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('a page restored from the back-forward cache does not stay signing-in', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    void client.signIn();
    await harness.nextRedirect();
    expect(client.getSnapshot().status).toBe('signing-in');
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
  });

  test('a page restored from the back-forward cache after a sign-out redirect can sign out again', async () => {
    harness = createHarness();
    const { client } = await harness.signIn(harness.createClient());
    const leaving = harness.nextRedirect();
    void client.signOut();
    await leaving;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(client.getSnapshot().status).toBe('unauthenticated');
    // Signed in again in another tab, this tab takes the new session...
    await harness.signIn(harness.createClient());
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('authenticated'));
    // ...and its sign-out reaches the provider again instead of joining the one that never ended.
    const again = harness.nextRedirect();
    void client.signOut();
    expect(new URL(await again).pathname).toBe(
      new URL(`${harness.provider.issuer}/logout`).pathname,
    );
  });

  test.each(['user', 'idle'] as const)(
    'a page restored from the back-forward cache after leaving to sign out (%s) reads why, so a guard does not sign it straight back in',
    async (reason) => {
      harness = createHarness();
      const { client } = await harness.signIn(harness.createClient());
      const leaving = harness.nextRedirect();
      void client.signOut({ reason });
      await leaving;
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      expect(client.getSnapshot()).toMatchObject({
        status: 'unauthenticated',
        signOutReason: reason,
      });
    },
  );

  test('a page restored from the back-forward cache drops the watch of the redirect it left on', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Left for the provider: the 15 s redirect watch is armed.
      void client.signIn();
      await harness.nextRedirect();
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
      // Back, the user signs in in a popup; the old watch must not end that sign-in.
      const { authorizeUrl } = stubPopup();
      void client.signIn({ popup: true });
      await authorizeUrl();
      await vi.advanceTimersByTimeAsync(16_000);
      expect(client.getSnapshot().status).toBe('signing-in');
    } finally {
      vi.useRealTimers();
    }
  });

  test('dispose stops listeners and timers', async () => {
    fakeTimeForFloor();
    harness = createHarness({ accessTokenTtl: 1 });
    const { client } = await harness.signIn(harness.createClient());
    let calls = 0;
    client.subscribe(() => (calls += 1));
    client.dispose();
    // Past the renewal time (and rule 5's floor), which a live client's timer would act on.
    await passTokenFloor();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(harness.provider.count('refresh')).toBe(0);
    expect(calls).toBe(0);
  });
});

describe('sign-out', () => {
  test('clears the local session first, then ends it at the provider with id_token_hint', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const idToken = client.getSnapshot().user?.id_token;
    const waiting = harness.nextRedirect();
    void client.signOut();
    const url = new URL(await waiting);
    expect(storedUsers(storage)).toEqual([]);
    expect(client.getSnapshot().status).toBe('signing-out');
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.provider.issuer}/logout`);
    expect(url.searchParams.get('id_token_hint')).toBe(idToken);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${appOrigin}/signed-out`);
  });

  test('revokes the refresh and access tokens when asked', async () => {
    harness = createHarness();
    const { client } = await harness.signIn(harness.createClient());
    const user = client.getSnapshot().user;
    await client.signOut({ revokeTokens: true, redirect: false });
    const revoked = harness.provider.requests.filter((request) => request.endpoint === 'revoke');
    expect(revoked.map((request) => request.body?.get('token'))).toEqual([
      user?.refresh_token,
      user?.access_token,
    ]);
    expect(client.getSnapshot().status).toBe('unauthenticated');
  });

  test('without an end-session endpoint, signs out locally', async () => {
    harness = createHarness({ endSession: false });
    const { client } = await harness.signIn(harness.createClient());
    await client.signOut();
    expect(client.getSnapshot()).toEqual({
      status: 'unauthenticated',
      user: null,
      error: null,
      signOutReason: 'user',
    });
    expect(harness.redirects).toHaveLength(1);
  });

  test('without an end-session endpoint, says in development that the provider session is alive', async () => {
    harness = createHarness({ endSession: false });
    const { client } = await harness.signIn(harness.createClient());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await client.signOut();
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /no `end_session_endpoint`.*signed out here only/,
    );
  });
});

/**
 * After a first passing failure (the refresh count at 1): the three retries, each seen at the
 * provider and reported. Backoff 5, 10, 20 s (±25 % jitter), never under the 10 s between token
 * requests; the failure is reported in the same step that arms the next retry.
 */
async function runThreeRetries(client: AuthClient): Promise<void> {
  for (const [wait, attempts] of [
    [10_000, 2],
    [12_500, 3],
    [25_000, 4],
  ] as const) {
    const failed = client.getSnapshot().error;
    await vi.advanceTimersByTimeAsync(wait);
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(attempts));
    await vi.waitFor(() => expect(client.getSnapshot().error).not.toBe(failed));
  }
}

describe('bounds', () => {
  test('renewal retries after a passing failure are bounded (3, with backoff, then one at expiry)', async () => {
    harness = createHarness();
    const { client } = await harness.signIn(harness.createClient());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await passTokenFloor();
    try {
      harness.provider.options.refreshStatus = 503;
      await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
      await runThreeRetries(client);
      // Then nothing more while the tokens are valid…
      const expiresAt = (client.getSnapshot().user?.expires_at as number) * 1000;
      await vi.advanceTimersByTimeAsync(expiresAt - Date.now() - 5_000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(harness.provider.count('refresh')).toBe(4);
      expect(client.getSnapshot().status).toBe('authenticated');
      // …and one last attempt when they expire, which, failing, ends the session (rather than
      // keeping it with expired tokens).
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
      expect(harness.provider.count('refresh')).toBe(5);
      expect(client.getSnapshot().error?.code).toBe('session_expired');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('bounds, per session', () => {
  test('tokens renewed in another tab give this tab its retries again', async () => {
    harness = createHarness();
    const { client } = await harness.signIn(harness.createClient());
    const other = harness.createClient();
    await other.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await passTokenFloor();
    try {
      harness.provider.options.refreshStatus = 503;
      await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
      // Its three retries (as in the test above), then none until the tokens expire.
      await runThreeRetries(client);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(harness.provider.count('refresh')).toBe(4);
      // The provider is back, and the other tab renews: this tab takes the fresh tokens.
      harness.provider.options.refreshStatus = undefined;
      const before = client.getSnapshot().user?.access_token;
      await other.renew();
      await vi.waitFor(() => expect(client.getSnapshot().user?.access_token).not.toBe(before));
      // A passing failure of these fresh tokens is retried with backoff again, not only at expiry.
      harness.provider.options.refreshStatus = 503;
      await vi.advanceTimersByTimeAsync(10_000);
      await expect(client.renew()).rejects.toMatchObject({ code: 'renew_failed' });
      expect(harness.provider.count('refresh')).toBe(6);
      await vi.advanceTimersByTimeAsync(10_000);
      await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(7));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a ready-made UserManager', () => {
  test('is driven with the same checks', async () => {
    harness = createHarness({ idTokenClaims: (claims) => ({ ...claims, aud: 'someone-else' }) });
    const settings = {
      authority: harness.provider.issuer,
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
      userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
      stateStore: new WebStorageStateStore({ store: localStorage }),
    };
    const starter = harness.createClient();
    const waiting = harness.nextRedirect();
    void starter.signIn();
    history.replaceState(null, '', harness.provider.authorize(await waiting));
    const client = new AuthClient(
      { userManager: new UserManager(settings) },
      { navigate: () => undefined, createChannel: () => null },
    );
    await client.start();
    expect(client.getSnapshot().error?.check).toBe('aud');
    expect(await client.userManager.getUser()).toBeNull();
    client.dispose();
  });

  test("with storage: 'memory', keeps the refresh token out of web storage (its own store is not used)", async () => {
    harness = createHarness();
    const starter = harness.createClient();
    const waiting = harness.nextRedirect();
    void starter.signIn();
    history.replaceState(null, '', harness.provider.authorize(await waiting));
    // The UserManager's default user store is sessionStorage.
    const client = new AuthClient(
      {
        userManager: new UserManager({
          authority: harness.provider.issuer,
          client_id: 'app',
          redirect_uri: `${appOrigin}/callback`,
          stateStore: new WebStorageStateStore({ store: localStorage }),
        }),
        storage: 'memory',
      },
      { navigate: () => undefined, createChannel: () => null },
    );
    await client.start();
    expect(client.getSnapshot().status).toBe('authenticated');
    const held = await client.userManager.getUser();
    expect(held?.refresh_token).toMatch(/^rt-/);
    const refreshToken = /(?<![\w-])rt-[\w-]+/;
    expect(storageText(sessionStorage)).not.toMatch(refreshToken);
    expect(storageText(localStorage)).not.toMatch(refreshToken);
    client.dispose();
  });

  test("with response_mode 'fragment', sign-in stops with config_invalid before it leaves (the callback is read from the query)", async () => {
    harness = createHarness();
    const client = new AuthClient(
      {
        userManager: new UserManager({
          authority: harness.provider.issuer,
          client_id: 'app',
          redirect_uri: `${appOrigin}/callback`,
          response_mode: 'fragment',
        }),
      },
      {
        navigate: () => undefined,
        createChannel: () => null,
        redirect: (url) => harness.redirects.push(url),
      },
    );
    await client.start();
    await client.signIn();
    expect(client.getSnapshot().error).toMatchObject({
      code: 'config_invalid',
      field: 'response_mode',
    });
    expect(harness.redirects).toEqual([]);
    client.dispose();
  });

  test('its settings are validated too', () => {
    const manager = new UserManager({
      authority: 'http://id.example.com',
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
    });
    expect(() => new AuthClient({ userManager: manager })).toThrow(/`authority` must use https:/);
  });
});

import { InMemoryWebStorage } from 'oidc-client-ts';
import { afterEach, describe, expect, test } from 'vitest';
import {
  addressHasAuthParams,
  appOrigin,
  createHarness,
  recordStatuses,
  storedUsers,
} from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';

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
    const storage = new InMemoryWebStorage() as unknown as Storage;
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

  test('a reload with a stored session restores it without asking the provider', async () => {
    harness = createHarness();
    const storage = new InMemoryWebStorage() as unknown as Storage;
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
    expect(client.getSnapshot()).toEqual({ status: 'unauthenticated', user: null, error: null });
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

import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  createHarness as createLoadedHarness,
  newStorage,
  storedUsers,
} from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import type { AuthClient } from './AuthClient';

// The test setup loads the engine's chunk before every file. These tests start from fresh modules,
// as a page does, so that the client loads it itself.
async function coldStart() {
  vi.resetModules();
  const { createHarness } = await import('../../test/support/harness');
  const { isAuthError } = await import('./errors');
  return { createHarness, isAuthError };
}

/** The engine's chunk fails to load (offline, say) until `failing` is set to false. */
function failingChunk() {
  const chunk = { failing: true };
  vi.doMock('./engine', async (importOriginal) => {
    if (chunk.failing) throw new TypeError('Failed to fetch dynamically imported module');
    return importOriginal();
  });
  return chunk;
}

let harness: Harness | undefined;
afterEach(() => {
  harness?.dispose();
  harness = undefined;
  vi.doUnmock('./engine');
});

describe("the engine's chunk", () => {
  test('a page that has not loaded it starts, signs in, calls the API, renews and signs out', async () => {
    const { createHarness } = await coldStart();
    harness = createHarness();
    const starter = harness.createClient();
    const { client } = await harness.signIn(starter, { returnTo: '/orders' });
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(harness.navigations).toEqual(['/orders']);

    const response = await client.fetch(`${harness.provider.apiOrigin}/me`);
    expect(response.status).toBe(200);
    const before = client.getSnapshot().user?.access_token;
    await passTokenFloor();
    const renewed = await client.renew();
    expect(renewed?.access_token).toBeDefined();
    expect(renewed?.access_token).not.toBe(before);

    await client.signOut({ redirect: false });
    expect(client.getSnapshot().status).toBe('unauthenticated');
  });

  test('a chunk that fails to load: a network AuthError in the state, nothing sent, and a later call loads it', async () => {
    const chunk = failingChunk();
    const { createHarness, isAuthError } = await coldStart();
    harness = createHarness();
    const client = harness.createClient();
    // The session cannot be restored: the state says why, instead of loading forever.
    await client.start();
    let { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(isAuthError(error, 'network')).toBe(true);
    expect(error?.message).toMatch(/could not load a chunk of its own code/);

    // As any failed sign-in: the promise settles, the state holds the error.
    await client.signIn();
    ({ status, error } = client.getSnapshot());
    expect(status).toBe('error');
    expect(isAuthError(error, 'network')).toBe(true);
    expect(harness.redirects).toEqual([]);
    expect(harness.provider.count('token')).toBe(0);

    // Back online: starting again restores (signed out here), and sign-in goes to the provider.
    chunk.failing = false;
    await client.start();
    expect(client.getSnapshot().status).toBe('unauthenticated');
    const waiting = harness.nextRedirect();
    void client.signIn();
    expect(new URL(await waiting).pathname).toBe('/authorize');
    expect(client.getSnapshot().status).toBe('signing-in');
  });

  test.each([
    ['getAccessToken()', (client: AuthClient) => client.getAccessToken()],
    ['fetch()', (client: AuthClient) => client.fetch('https://elsewhere.example.test/x')],
    [
      'createAuthFetch(client, …), which loads the chunk itself',
      async (client: AuthClient) => {
        const { createAuthFetch } = await import('./createAuthFetch');
        const ok = async () => new Response('{}');
        return createAuthFetch(client, [location.origin], ok)('/x');
      },
    ],
    [
      'getAccessToken() after another load of the chunk',
      async (client: AuthClient) => {
        const { loadEngine } = await import('./loadEngine');
        await loadEngine();
        return client.getAccessToken();
      },
    ],
  ])(
    'a start whose chunk failed to load runs once a later call (%s) loads it, with no second start',
    async (_, call) => {
      const chunk = failingChunk();
      const { createHarness } = await coldStart();
      harness = createHarness();
      const client = harness.createClient({
        environment: { fetch: async () => new Response('{}') },
      });
      // Held started, as AuthProvider holds it, and never started again.
      await client.start();
      expect(client.getSnapshot().status).toBe('error');

      chunk.failing = false;
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      await call(client);
      // The engine is here: the held start restores the session (signed out here).
      await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
    },
  );

  test('createAuthFetch, whose code comes with the chunk: a request it cannot load rejects with a network AuthError, the next one loads it', async () => {
    const chunk = failingChunk();
    const { isAuthError } = await coldStart();
    const { createAuthFetch } = await import('./createAuthFetch');
    const sent: string[] = [];
    const authFetch = createAuthFetch(
      { getAccessToken: async () => 'token-1', renewAfterUnauthorized: async () => null },
      ['https://api.example.test'],
      async (request) => {
        sent.push(
          `${(request as Request).url} ${(request as Request).headers.get('Authorization')}`,
        );
        return new Response('{}');
      },
    );
    const failed = await authFetch('https://api.example.test/me').catch((error: unknown) => error);
    expect(isAuthError(failed, 'network')).toBe(true);
    expect(sent).toEqual([]);

    chunk.failing = false;
    expect((await authFetch('https://api.example.test/me')).status).toBe(200);
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await authFetch('https://elsewhere.example.test/x');
    expect(warned.mock.calls[0]?.[0]).toMatch(/not in `apiOrigins`/);
    expect(sent).toEqual([
      'https://api.example.test/me Bearer token-1',
      'https://elsewhere.example.test/x null',
    ]);
  });

  /** `createAuthFetch` on a cold page whose engine chunk arrives when `arrive()` is called. */
  async function fetchBeforeTheChunk(origin: string) {
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    vi.doMock('./engine', async (importOriginal) => {
      await arrived;
      return importOriginal();
    });
    await coldStart();
    const { createAuthFetch } = await import('./createAuthFetch');
    const sent: string[] = [];
    const authFetch = createAuthFetch(
      { getAccessToken: async () => 'token-1', renewAfterUnauthorized: async () => null },
      [origin],
      async (request) => {
        sent.push((request as Request).url);
        return new Response('{}');
      },
    );
    return { authFetch, sent, arrive };
  }

  test('createAuthFetch before the chunk is here: the request is made at the call, as fetch makes it, and an abort wins at once', async () => {
    const { authFetch, sent, arrive } = await fetchBeforeTheChunk(location.origin);
    history.replaceState(null, '', '/orders/');
    const relative = authFetch('api/items');
    history.replaceState(null, '', '/settings/profile/');
    const controller = new AbortController();
    const aborted = authFetch('/api/slow', { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toEqual([]);

    arrive();
    expect((await relative).status).toBe(200);
    expect(sent).toEqual([`${location.origin}/orders/api/items`]);
  });

  test('createAuthFetch before the chunk is here: a relative URL resolves against `<base href>`', async () => {
    const { authFetch, sent, arrive } = await fetchBeforeTheChunk('https://api.example.test');
    const base = document.createElement('base');
    base.href = 'https://api.example.test/v1/';
    document.head.append(base);
    let pending: Promise<Response>;
    try {
      pending = authFetch('items');
    } finally {
      base.remove();
    }
    arrive();
    expect((await pending).status).toBe(200);
    expect(sent).toEqual(['https://api.example.test/v1/items']);
  });

  test('a callback page whose chunk fails to load shows a network error, not a spinner', async () => {
    vi.doMock('./engine', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { createHarness, isAuthError } = await coldStart();
    harness = createHarness();
    history.replaceState(null, '', '/callback?code=abc&state=xyz');
    const client = harness.createClient();
    await client.start();
    const { status, error } = client.getSnapshot();
    expect(status).toBe('error');
    expect(isAuthError(error, 'network')).toBe(true);
  });

  test('on the callback page, a sign-in asked for before start(), both waiting for the chunk, joins the callback', async () => {
    // The sign-in an earlier page load began, answered at the provider.
    const earlier = createLoadedHarness();
    const callbackUrl = await earlier.landOnCallback({ returnTo: '/orders' });
    const pending = Object.entries(localStorage);
    const { createHarness } = await coldStart();
    harness = createHarness();
    // What the new harness cleared: the pending sign-in's state, the address, the provider.
    for (const [key, value] of pending) localStorage.setItem(key, value);
    history.replaceState(null, '', callbackUrl);
    vi.stubGlobal('fetch', earlier.provider.fetch);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const landing = harness.createClient();
    // A child's effect signs in, then AuthProvider's starts: both run once the chunk is here.
    await Promise.all([landing.signIn(), landing.start()]);
    expect(harness.redirects).toEqual([]);
    expect(landing.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
    expect(harness.navigations).toEqual(['/orders']);
    expect(earlier.provider.count('token')).toBe(1);
    earlier.dispose();
  });

  test('start() and signOut() asked for before the chunk arrives run in the order asked: the session is restored, then signed out', async () => {
    // A session signed in with the engine loaded, as another page of the app had it.
    const signedIn = createLoadedHarness();
    const storage = newStorage();
    await signedIn.signIn(signedIn.createClient(), { storage });
    expect(storedUsers(storage)).toHaveLength(1);
    // A reload whose engine chunk comes late: start() and a click on "Sign out" both wait for it.
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    vi.doMock('./engine', async (importOriginal) => {
      await arrived;
      return importOriginal();
    });
    const { createHarness } = await coldStart();
    harness = createHarness();
    const client = harness.createClient({
      storage,
      environment: { sharedStorage: signedIn.shared },
    });
    const statuses: string[] = [];
    client.subscribe(() => statuses.push(client.getSnapshot().status));
    const starting = client.start();
    const signingOut = client.signOut({ redirect: false });
    arrive();
    await Promise.all([starting, signingOut]);
    await harness.caughtUp(client);
    expect(client.getSnapshot()).toMatchObject({ status: 'unauthenticated', user: null });
    expect(statuses).toEqual(['authenticated', 'signing-out', 'unauthenticated']);
    expect(storedUsers(storage)).toEqual([]);
    signedIn.dispose();
  });
});

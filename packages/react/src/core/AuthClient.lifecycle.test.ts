import { afterEach, describe, expect, test, vi } from 'vitest';
import { waitForAuth } from '../react-router/requireAuth';
import { createHarness, newStorage, recordStatuses } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { fakeTimeForFloor, passTokenFloor } from '../../test/support/passTokenFloor';

let harness: Harness;
afterEach(() => harness?.dispose());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('start and stop, counted', () => {
  test('the last stop() stops timers and listeners at once; start() again restores and renews', async () => {
    fakeTimeForFloor();
    harness = createHarness({ accessTokenTtl: 1 });
    const storage = newStorage();
    // The landed client is started once (by the harness).
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const before = client.getSnapshot().user;
    let changes = 0;
    client.subscribe(() => (changes += 1));
    client.stop();
    // Past the renewal time (and rule 5's floor), which a running client's timer would act on.
    await passTokenFloor();
    await pause(1200);
    // The token expired while stopped: nothing renewed it and nothing changed.
    expect(harness.provider.count('refresh')).toBe(0);
    expect(changes).toBe(0);

    await client.start();
    await expect.poll(() => harness.provider.count('refresh'), { timeout: 5000 }).toBe(1);
    // The renewed tokens are in the state. (Not `expired === false`: a 1 s token issued late in a
    // second, with expires_at in whole seconds, may read as expired a few ms after it lands.)
    await expect
      .poll(() => client.getSnapshot().user?.access_token, { timeout: 5000 })
      .not.toBe(before?.access_token);
    expect(client.getSnapshot().user?.expires_at).toBeGreaterThan(before?.expires_at ?? Infinity);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  test('the client runs while any start() is unmatched', async () => {
    fakeTimeForFloor();
    harness = createHarness({ accessTokenTtl: 1 });
    const { client } = await harness.signIn(harness.createClient());
    void client.start();
    client.stop();
    // One start is still unmatched: the renewal timer still runs.
    await passTokenFloor();
    await expect.poll(() => harness.provider.count('refresh'), { timeout: 5000 }).toBe(1);
  });

  test('a stop() with no start() to match does nothing, and cannot make the count negative', async () => {
    fakeTimeForFloor();
    harness = createHarness({ accessTokenTtl: 1 });
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    client.stop();
    client.stop();
    await client.start();
    await passTokenFloor();
    await expect.poll(() => harness.provider.count('refresh'), { timeout: 5000 }).toBe(1);
  });

  test('a client restarted after another tab signed out does not show the old session', async () => {
    harness = createHarness();
    const { client: first } = await harness.signIn(harness.createClient());
    const second = harness.createClient();
    await second.start();
    expect(second.getSnapshot().status).toBe('authenticated');

    first.stop();
    const waiting = harness.nextRedirect();
    void second.signOut();
    await waiting;
    // Stopped, the first tab heard nothing and still shows what it had.
    expect(first.getSnapshot().status).toBe('authenticated');

    await first.start();
    expect(first.getSnapshot()).toMatchObject({ status: 'unauthenticated', user: null });
  });

  test('StrictMode-like start, stop, start in one tick processes the callback once and keeps running', async () => {
    fakeTimeForFloor();
    harness = createHarness({ accessTokenTtl: 1 });
    const waiting = harness.nextRedirect();
    void harness.createClient().signIn();
    history.replaceState(null, '', harness.provider.authorize(await waiting));
    const landed = harness.createClient();
    const first = landed.start();
    landed.stop();
    const second = landed.start();
    await Promise.all([first, second]);
    expect(landed.getSnapshot().status).toBe('authenticated');
    expect(harness.provider.count('token')).toBe(1);
    // Still running: the renewal timer fires.
    await passTokenFloor();
    await expect.poll(() => harness.provider.count('refresh'), { timeout: 5000 }).toBe(1);
  });

  test('a loader guard on a stopped client waits for the restore, not the state it had', async () => {
    harness = createHarness();
    const { client: first } = await harness.signIn(harness.createClient());
    const second = harness.createClient();
    await second.start();
    first.stop();
    const waiting = harness.nextRedirect();
    void second.signOut();
    await waiting;
    // Stopped, the first tab still shows the session; the guard must not let it through.
    expect(first.getSnapshot().status).toBe('authenticated');
    const snapshot = await waitForAuth(first);
    expect(snapshot).toMatchObject({ status: 'unauthenticated', user: null });
  });

  test('a disposed client stays stopped: start() connects nothing', async () => {
    harness = createHarness();
    const client = harness.createClient();
    await client.start();
    client.dispose();
    const listening = vi.spyOn(window, 'addEventListener');
    await client.start();
    expect(listening.mock.calls.map(([type]) => type)).not.toContain('pageshow');
  });
});

describe('sign-in asked for while the session is being restored', () => {
  test('a signed-out page that signs in at once stays signing-in while it leaves', async () => {
    harness = createHarness();
    const client = harness.createClient();
    const statuses = recordStatuses(client);
    const starting = client.start();
    const waiting = harness.nextRedirect();
    void client.signIn();
    await waiting;
    // The restore that was under way found no session: that is no news to a page signing in.
    await starting;
    expect(client.getSnapshot().status).toBe('signing-in');
    expect(statuses).not.toContain('unauthenticated');
  });

  test('a stored session the restore finds still shows, and a failed sign-in keeps it', async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient(), { storage });
    history.replaceState(null, '', '/dashboard');
    const reloaded = harness.createClient({ storage });
    void reloaded.start();
    harness.provider.options.unreachable = true;
    await reloaded.signIn({ prompt: 'login' });
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    expect(storage.length).toBeGreaterThan(0);
  });
});

describe('sign-in asked for on the page that completes one', () => {
  // An app that signs in whenever it is not signed in, without waiting for `isLoading`, asks on
  // the callback page too. That sign-in waits for the callback and ends with it when it signs in
  // (`joinCallback.test.ts`), but after a failure it leaves again: a loop with a provider that
  // refuses every time.
  test('warns in development that it is still a mistake, naming isLoading', async () => {
    harness = createHarness();
    await harness.landOnCallback({ returnTo: '/orders' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const landing = harness.createClient();
    // A child's effect runs before AuthProvider's: signIn() comes first, then start().
    await Promise.all([landing.signIn(), landing.start()]);
    expect(landing.getSnapshot().status).toBe('authenticated');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^oidc-kit: signIn\(\) was called while this page completes a sign-in.*loop.*isLoading/,
    );
    // The condition it names also stops after a failed sign-in, which ends on this page too.
    expect(String(warn.mock.calls[0]?.[0])).toContain(
      '`if (!isLoading && !isAuthenticated && !error) signIn()`',
    );
  });

  test('says nothing for a sign-in asked for on another page, nor in production', async () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // On a page that is no callback, while loading: a page that signs in at once, as it may.
    await harness.landOnCallback({ returnTo: '/orders' });
    expect(warn).not.toHaveBeenCalled();
    vi.stubEnv('NODE_ENV', 'production');
    const leaving = harness.nextRedirect();
    void harness.createClient().signIn();
    await leaving;
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('a client asked for a token without start()', () => {
  // The classic way there: `new AuthClient(config)` for route loaders or a data layer, and
  // `<AuthProvider config={config}>`, which makes a client of its own; the first is never started.
  test('says so in development, once, naming the fix: the request would go without the session', async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient(), { storage });
    history.replaceState(null, '', '/');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const never = harness.createClient({ storage });
    await never.fetch(`${harness.provider.apiOrigin}/me`);
    await never.getAccessToken();
    await never.getAuthHeaders(`${harness.provider.apiOrigin}/me`);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^oidc-kit: .*AuthClient that was never started.*<AuthProvider client=\{client\}>.*client\.start\(\)/,
    );
  });

  test('stays silent in production, and once started, in development too', async () => {
    harness = createHarness();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubEnv('NODE_ENV', 'production');
    await harness.createClient().getAccessToken();
    vi.unstubAllEnvs();
    const started = harness.createClient();
    void started.start();
    await started.getAccessToken();
    expect(warn).not.toHaveBeenCalled();
  });
});

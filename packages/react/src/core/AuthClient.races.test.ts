import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { StateStore } from 'oidc-client-ts';
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import {
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
import { passTokenFloor } from '../../test/support/passTokenFloor';
import { deferred } from '../../test/support/deferred';
import type { Deferred } from '../../test/support/deferred';
import { AuthClient } from './AuthClient';
import { decodeIdToken } from './idToken';
import type { ChannelLike } from './tabSync';
import { recordedSession } from '../../test/support/chaosChecks';

let harness: Harness;
const ownClients: AuthClient[] = [];
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
  for (const client of ownClients.splice(0)) client.dispose();
});
/**
 * A signed-out tab (`make`'s, by default a new harness's) whose sign-in redirect has been asked
 * for, and has not left the page.
 */
async function redirectUnderWay(make?: () => AuthClient): Promise<AuthClient> {
  if (make === undefined) harness = createHarness();
  const client = make?.() ?? harness.createClient();
  await client.start();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  const seen = harness.redirects.length;
  void client.signIn();
  await vi.advanceTimersByTimeAsync(100);
  await vi.waitFor(() => expect(harness.redirects).toHaveLength(seen + 1));
  return client;
}

describe('a renewal under way when the session ends cannot revive it', () => {
  test('in the same tab: sign-out during renewal ends signed out, with nothing stored', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    await passTokenFloor();
    harness.provider.options.tokenDelay = 200;
    const renewing = client.renew();
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1));
    await client.signOut({ redirect: false });
    await expect(renewing).resolves.toBeNull();
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(storedUsers(storage)).toEqual([]);
  });

  // A provider slow to answer, or a hidden iframe that gets no answer (third-party cookies blocked)
  // and waits for its timeout: the user who clicked "Sign out" does not wait for it.
  test.each([
    ['a refresh', false],
    ['a silent authorization', true],
  ])(
    "in the same tab, still waiting for %s: the sign-out leaves for the provider's logout at once",
    async (_, silent) => {
      const frame = deferred<string>();
      // Never left unanswered: a renewal under way would hold the page's lock for the next tests.
      onTestFinished(() => frame.resolve(''));
      let authorize = '';
      harness = createHarness({
        refreshDelay: 2_000,
        ...(silent && { tokenResponse: ({ refresh_token: _, ...fields }) => fields }),
      });
      const storage = newStorage();
      const environment = {
        silentFrame: (url: string) => {
          authorize = url;
          return frame.promise;
        },
      };
      const { client } = await harness.signIn(harness.createClient(), { storage, environment });
      await passTokenFloor();
      const tokenRequests = harness.provider.tokenRequestTimes().length;
      const renewing = client.renew().catch(() => null);
      await vi.waitFor(() =>
        expect(silent ? authorize : harness.provider.count('refresh')).toBeTruthy(),
      );
      const logouts = () => harness.redirects.filter((url) => url.includes('/logout'));
      void client.signOut();
      await vi.waitFor(() => expect(logouts()).toHaveLength(1), { timeout: 1_000 });
      expect(client.getSnapshot().status).toBe('signing-out');
      // The page may be gone at any moment now: nothing of the renewal may reach storage.
      const written: string[] = [];
      const setItem = storage.setItem.bind(storage);
      storage.setItem = (key: string, value: string) => {
        written.push(key);
        setItem(key, value);
      };
      // The renewal's answer, when it comes, is dropped.
      if (silent) frame.resolve(harness.provider.authorize(authorize));
      await expect(renewing).resolves.toBeNull();
      expect(harness.provider.tokenRequestTimes()).toHaveLength(tokenRequests + 1);
      expect(client.getSnapshot().status).toBe('signing-out');
      expect(written.filter((key) => key.startsWith('oidc.user:'))).toEqual([]);
      expect(storedUsers(storage)).toEqual([]);
      expect(storageText(harness.shared)).not.toContain('oidc-kit:session:');
    },
  );

  test('across tabs: a sign-out in one tab wins over a renewal under way in the other', async () => {
    harness = createHarness();
    const firstStorage = newStorage();
    const { client: first } = await harness.signIn(harness.createClient(), {
      storage: firstStorage,
    });
    const secondStorage = newStorage();
    const second = harness.createClient({ storage: secondStorage });
    await second.start();
    expect(second.getSnapshot().status).toBe('authenticated');
    await passTokenFloor();
    harness.provider.options.tokenDelay = 300;
    const renewing = second.renew();
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1));
    await first.signOut({ redirect: false });
    await renewing;
    await harness.caughtUp(second);
    expect(first.getSnapshot().status).toBe('unauthenticated');
    expect(second.getSnapshot().status).toBe('unauthenticated');
    expect(storedUsers(firstStorage)).toEqual([]);
    expect(storedUsers(secondStorage)).toEqual([]);
  });
});

describe('a renewal answered just before the session ends', () => {
  test('across tabs: a renewal still recording its new refresh token when the other tab signs out does not revive the session', async () => {
    harness = createHarness({ refreshDelay: 100 });
    const { client: first } = await harness.signIn(harness.createClient());
    const storage = newStorage();
    const second = harness.createClient({ storage });
    await second.start();
    const statuses = recordStatuses(second);
    await passTokenFloor();
    const renewing = second.renew();
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1));
    // The answer is in; the next digest is the one that records its refresh token: held.
    const recording = deferred();
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    const held = vi
      .spyOn(crypto.subtle, 'digest')
      .mockImplementationOnce(async (algorithm, data) => {
        await recording.promise;
        return digest(algorithm, data);
      });
    await vi.waitFor(() => expect(held).toHaveBeenCalled());
    // The tabs share one page's lock here: the sign-out's last step waits for the renewal's.
    const signingOut = first.signOut({ redirect: false });
    await vi.waitFor(() => expect(second.getSnapshot().signOutReason).toBe('elsewhere'));
    recording.resolve();
    await Promise.all([renewing, signingOut]);
    await harness.caughtUp(second);
    expect(statuses).toEqual(['authenticated', 'unauthenticated']);
    expect(second.getSnapshot().user).toBeNull();
    expect(storedUsers(storage)).toEqual([]);
  });
});

describe('refresh tokens', () => {
  test('a provider that does not rotate them: every renewal still sends the (same) token', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness({ rotateRefreshTokens: false });
    const { client } = await harness.signIn(harness.createClient());
    const refreshToken = client.getSnapshot().user?.refresh_token;
    for (let round = 1; round <= 3; round += 1) {
      // Past the 10 s the engine keeps between token requests.
      vi.setSystemTime(Date.now() + 11_000);
      await client.renew();
      expect(harness.provider.count('refresh')).toBe(round);
    }
    expect(client.getSnapshot().user?.refresh_token).toBe(refreshToken);
    expect(client.getSnapshot().status).toBe('authenticated');
  });

  // RFC 6749 §5.1: the scope granted may be narrower than the one asked for.
  test('a refresh answered with a narrower scope: the session goes on, and the next refresh asks for that scope', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const { client } = await harness.signIn(harness.createClient());
    harness.provider.options.tokenResponse = (fields) => ({ ...fields, scope: 'openid profile' });
    vi.setSystemTime(Date.now() + 11_000);
    await client.renew();
    expect(client.getSnapshot().user?.scope).toBe('openid profile');
    vi.setSystemTime(Date.now() + 11_000);
    await client.renew();
    const refreshes = harness.provider.requests.filter((request) => request.endpoint === 'refresh');
    expect(refreshes.map((request) => request.body?.get('scope'))).toEqual([
      'openid profile email',
      'openid profile',
    ]);
    expect(client.getSnapshot()).toMatchObject({ status: 'authenticated', error: null });
  });

  test('a refresh request times out: its token, maybe used, is never sent again; a silent authorize renews', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    client.dispose();
    const tab = harness.createClient({
      storage,
      config: { timeout: 200 },
      environment: { tabSessionWait: 0 },
    });
    await tab.start();
    const token = tab.getSnapshot().user?.refresh_token as string;
    await passTokenFloor();
    harness.provider.options.refreshDelay = 1000;
    await expect(tab.renew()).rejects.toMatchObject({ code: 'timeout' });
    // The next attempt, no sooner than 10 s after the lost one, authorizes silently.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11_000);
    const renewed = await tab.renew();
    expect(harness.provider.presentations(token)).toBe(1);
    expect(harness.silentAuthorizations).toHaveLength(1);
    expect(renewed?.refresh_token).not.toBe(token);
    expect(tab.getSnapshot().status).toBe('authenticated');
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
  });
});

describe('signing in again', () => {
  test('as another user while one is stored: the new user replaces the old', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client: alice } = await harness.signIn(harness.createClient(), { storage });
    expect(alice.getSnapshot().user?.profile.sub).toBe('alice');
    alice.dispose();
    const bob = {
      sub: 'bob',
      name: 'Bob Stone',
      email: 'bob@example.com',
      roles: ['user', 'admin'],
    };
    const { client } = await harness.signIn(harness.createClient({ storage }), {
      storage,
      user: bob,
    });
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user?.profile.sub).toBe('bob');
  });

  test('a failed second sign-in (popup blocked) keeps the first session', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const user = client.getSnapshot().user;
    vi.spyOn(window, 'open').mockReturnValue(null);
    await client.signIn({ popup: true, prompt: 'login' });
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user).toBe(user);
    expect(client.getSnapshot().error?.code).toBe('popup_blocked');
    expect(storedUsers(storage)).toHaveLength(1);
  });

  test('a redirect that never leaves the page does not stay signing-in', async () => {
    const client = await redirectUnderWay();
    expect(client.getSnapshot().status).toBe('signing-in');
    await vi.advanceTimersByTimeAsync(15_000);
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
    void client.signIn();
    await vi.waitFor(() => expect(harness.redirects).toHaveLength(2));
  });
  test('signIn() settles once the page has stayed, on the state restored', async () => {
    const client = await redirectUnderWay();
    // Joins the sign-in under way.
    const settled = vi.fn();
    void client.signIn().then(settled);
    await vi.advanceTimersByTimeAsync(15_000);
    await vi.waitFor(() => expect(settled).toHaveBeenCalled());
    expect(client.getSnapshot().status).toBe('unauthenticated');
  });
  test('a sign-in begun while the stayed one settles is still joined, not doubled', async () => {
    const client = await redirectUnderWay();
    // The watch gives up and restores; the user clicks "Sign in" again before that restore ends.
    vi.advanceTimersByTime(15_000);
    void client.signIn();
    await vi.waitFor(() => expect(harness.redirects).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(100);
    expect(client.getSnapshot().status).toBe('signing-in');
    // A third click while the second redirect is under way joins it.
    void client.signIn();
    await vi.advanceTimersByTimeAsync(100);
    expect(harness.redirects).toHaveLength(2);
  });

  test('a client stopped and started again while its redirect is under way still settles when the page stays', async () => {
    const client = await redirectUnderWay();
    const settled = vi.fn();
    void client.signIn().then(settled);
    // StrictMode's remount, or the provider unmounted and mounted again.
    client.stop();
    void client.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(client.getSnapshot().status).toBe('signing-in');
    await vi.advanceTimersByTimeAsync(15_000);
    await vi.waitFor(() => expect(settled).toHaveBeenCalled());
    expect(client.getSnapshot().status).toBe('unauthenticated');
  });
  test('a redirect that never leaves a page hidden at the time does not stay signing-in once it shows', async () => {
    const client = await redirectUnderWay();
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(client.getSnapshot().status).toBe('signing-in');
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(15_000);
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
  });
});

describe('a sign-in that fails while the page waits for another tab', () => {
  test('its error (a blocked popup) stays when no tab hands the session over', async () => {
    harness = createHarness();
    // A session's record with no tab left to answer for it (closed yesterday, say).
    const { client: gone } = await harness.signIn(harness.createClient());
    gone.dispose();
    const tab = harness.createClient({
      storage: newStorage(),
      environment: { tabSessionWait: 300 },
    });
    const starting = tab.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    vi.spyOn(window, 'open').mockReturnValue(null);
    await tab.signIn({ popup: true });
    expect(tab.getSnapshot().error?.code).toBe('popup_blocked');
    await starting;
    expect(tab.getSnapshot().status).toBe('error');
    expect(tab.getSnapshot().error?.code).toBe('popup_blocked');
  });
});

describe('signing out', () => {
  test('a sign-out redirect that never leaves the page does not stay signing-out', async () => {
    const client = await signOutLeaving();
    expect(client.getSnapshot().status).toBe('signing-out');
    await settlesSignedOutByUser(client);
    // Signing out again reaches the provider again, rather than joining the one that never left.
    const again = harness.nextRedirect();
    void client.signOut();
    await vi.advanceTimersByTimeAsync(100);
    expect(await again).toMatch(/\/logout\?/);
  });
});

describe('a remount while the sign-out redirect is leaving', () => {
  test('the tab stays signing out (a guard would send it to sign in), and settles with its reason if the page stays', async () => {
    const client = await signOutLeaving();
    // The provider is unmounted and mounted again while the browser leaves for the provider.
    client.stop();
    void client.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(client.getSnapshot().status).toBe('signing-out');
    await settlesSignedOutByUser(client);
  });
});

/** A signed-in client whose sign-out redirect has gone to the provider's logout (fake timers on). */
async function signOutLeaving() {
  harness = createHarness();
  const { client } = await harness.signIn(harness.createClient());
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const leaving = harness.nextRedirect();
  void client.signOut();
  await vi.advanceTimersByTimeAsync(100);
  expect(await leaving).toMatch(/\/logout\?/);
  return client;
}

/** The page stayed: after the sign-out watch, `client` is signed out by the user. */
async function settlesSignedOutByUser(client: ReturnType<Harness['createClient']>) {
  await vi.advanceTimersByTimeAsync(15_000);
  await vi.waitFor(() =>
    expect(client.getSnapshot()).toMatchObject({
      status: 'unauthenticated',
      signOutReason: 'user',
    }),
  );
}

describe('a popup sign-in that fails after the session changed in another tab', () => {
  /** A popup sign-in on `opener`; `fail()` lands the popup on the provider's access_denied. */
  async function popupUnderWay(opener: ReturnType<Harness['createClient']>) {
    const { authorizeUrl } = stubPopup();
    const signingIn = opener.signIn({ popup: true, prompt: 'login' });
    const authorize = await authorizeUrl();
    async function fail(): Promise<void> {
      const { deliver } = landInPopup(
        harness.provider.authorize(authorize, undefined, 'access_denied'),
      );
      await harness.createClient({ storage: newStorage() }).start();
      deliver();
    }
    return { signingIn, fail };
  }

  test("a signed-out tab that took another tab's sign-in meanwhile keeps that session", async () => {
    harness = createHarness();
    const storage = newStorage();
    const tab = harness.createClient({ storage });
    await tab.start();
    const { signingIn, fail } = await popupUnderWay(tab);
    await harness.signIn(harness.createClient());
    await vi.waitFor(() => expect(tab.getSnapshot().status).toBe('authenticated'));
    const adopted = tab.getSnapshot().user;
    await fail();
    await expect(signingIn).resolves.toBeUndefined();
    expect(tab.getSnapshot().status).toBe('authenticated');
    expect(tab.getSnapshot().user).toBe(adopted);
    expect(tab.getSnapshot().error?.code).toBe('provider_error');
    expect(storedUsers(storage)).toHaveLength(1);
  });

  test('a step-up whose session was signed out in another tab meanwhile ends signed out, with its error', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const other = harness.createClient();
    await other.start();
    const { signingIn, fail } = await popupUnderWay(client);
    await other.signOut({ redirect: false });
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
    await fail();
    await expect(signingIn).resolves.toBeUndefined();
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.getSnapshot().error?.code).toBe('provider_error');
    expect(storedUsers(storage)).toEqual([]);
  });
});

describe('a client disposed while its renewal is at the provider', () => {
  test('an invalid_grant answered after dispose() ends the session in the other tabs too', async () => {
    harness = createHarness({ refreshDelay: 100 });
    const { client: first } = await harness.signIn(harness.createClient());
    const second = harness.createClient({ storage: newStorage() });
    await second.start();
    await passTokenFloor();
    const renewing = second.renew().catch(() => null);
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1));
    harness.provider.revokeAllGrants();
    // Disposed, its own channel is closed: the others must hear of the end all the same, not keep
    // a session whose record went.
    second.dispose();
    await renewing;
    await vi.waitFor(() => expect(first.getSnapshot().status).toBe('unauthenticated'), {
      timeout: 1000,
    });
    expect(first.getSnapshot().error?.code).toBe('session_expired');
    expect(recordedSession(harness.shared)).toBeNull();
    expect(harness.provider.count('refresh')).toBe(1);
  });
});

describe('a renewal and a popup sign-in at once', () => {
  /** A signed-in tab whose renewal is at the provider, answered after `refreshDelay` ms. */
  async function renewalUnderWay(refreshDelay: number) {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness({ refreshDelay });
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    vi.setSystemTime(Date.now() + 11_000);
    const renewing = client.renew();
    await vi.waitFor(() => expect(harness.provider.count('refresh')).toBe(1));
    return { client, storage, renewing };
  }

  test('a renewal answered while a popup sign-in is open is stored as the session it renewed', async () => {
    const { client, storage, renewing } = await renewalUnderWay(100);
    const { popup } = stubPopup();
    const stepUp = client.signIn({ popup: true, prompt: 'login' });
    const renewed = await renewing;
    popup.closed = true;
    await stepUp;
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.getSnapshot().user?.access_token).toBe(renewed?.access_token);

    // A reload finds the renewed session as this tab's: nothing to ask anyone.
    client.dispose();
    const reloaded = harness.createClient({ storage });
    await reloaded.start();
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    expect(reloaded.getSnapshot().user?.access_token).toBe(renewed?.access_token);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(harness.silentAuthorizations).toEqual([]);
  });

  test('a popup sign-in that ends while a renewal is under way: the new session is what stays stored', async () => {
    const { client, storage, renewing } = await renewalUnderWay(300);
    const errors: string[] = [];
    client.subscribe(() => {
      const { error } = client.getSnapshot();
      if (error !== null) errors.push(`${error.code} ${error.check ?? ''}`);
    });
    const { authorizeUrl } = stubPopup();
    const stepUp = client.signIn({ popup: true, prompt: 'login' });
    const url = await authorizeUrl();
    const { deliver } = landInPopup(harness.provider.authorize(url));
    await harness.createClient({ storage: newStorage() }).start();
    deliver();
    await Promise.all([stepUp, renewing]);
    const signedIn = client.getSnapshot().user;
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(harness.provider.count('token')).toBe(2);
    // Not refused on the way, though a renewal was under way: the sign-in's ID token carries the
    // nonce of its own request, and only a refreshed one must repeat the session's.
    expect(errors).toEqual([]);
    expect(decodeIdToken(signedIn?.id_token as string).nonce).toBe(
      new URL(url).searchParams.get('nonce'),
    );

    client.dispose();
    const reloaded = harness.createClient({ storage });
    await reloaded.start();
    expect(reloaded.getSnapshot().user?.access_token).toBe(signedIn?.access_token);
  });
});

/**
 * A tab whose `UserManager` the app made itself, with `userStore` (an app's own store, say
 * IndexedDB or encrypted) and `config` besides, on `harness`'s shared storage and tab channel.
 */
function readyMadeTab(userStore: StateStore, config: Record<string, unknown> = {}): AuthClient {
  const { createChannel, heardBy } = harness.hearing(
    () => harness.rawChannel() as unknown as ChannelLike,
  );
  const tab = new AuthClient(
    {
      userManager: new UserManager({
        authority: harness.provider.issuer,
        client_id: 'app',
        redirect_uri: `${appOrigin}/callback`,
        userStore,
        stateStore: new WebStorageStateStore({ store: localStorage }),
      }),
      ...config,
    },
    {
      sharedStorage: harness.shared,
      locks: null,
      createChannel,
      navigate: () => undefined,
    },
  );
  heardBy(tab);
  ownClients.push(tab);
  return tab;
}

describe('a sign-out while a sign-in is under way in the same tab', () => {
  test.each([
    ['signOut({ redirect: false })', false],
    ['signOut() leaving for the provider', true],
  ])('%s wins over a popup sign-in that succeeds after it', async (_, redirect) => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const { authorizeUrl } = stubPopup();
    const stepUp = client.signIn({ popup: true, prompt: 'login' });
    const authorize = await authorizeUrl();
    const leaving = redirect ? harness.nextRedirect() : undefined;
    const signingOut = client.signOut({ redirect });
    if (leaving === undefined) await signingOut;
    else await leaving;
    const { deliver } = landInPopup(harness.provider.authorize(authorize));
    await harness.createClient({ storage: newStorage() }).start();
    deliver();
    await expect(stepUp).resolves.toBeUndefined();
    expect(harness.provider.count('token')).toBe(2);
    expect(client.getSnapshot().status).toBe(redirect ? 'signing-out' : 'unauthenticated');
    expect(storedUsers(storage)).toEqual([]);
    expect(storageText(harness.shared)).not.toContain('oidc-kit:session:');
  });

  test('a sign-out in another tab wins over a popup sign-in that succeeds after it', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const other = harness.createClient();
    await other.start();
    const { authorizeUrl } = stubPopup();
    const stepUp = client.signIn({ popup: true, prompt: 'login' });
    const authorize = await authorizeUrl();
    await other.signOut({ redirect: false });
    await vi.waitFor(() => expect(client.getSnapshot().signOutReason).toBe('elsewhere'));
    const { deliver } = landInPopup(harness.provider.authorize(authorize));
    await harness.createClient({ storage: newStorage() }).start();
    deliver();
    await stepUp;
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(storedUsers(storage)).toEqual([]);
    expect(storageText(harness.shared)).not.toContain('oidc-kit:session:');
  });

  test('a session that expired meanwhile is no sign-out: the popup sign-in that succeeds after it stands', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(harness.createClient(), { storage });
    const { authorizeUrl } = stubPopup();
    const stepUp = client.signIn({ popup: true, prompt: 'login' });
    const authorize = await authorizeUrl();
    harness.provider.revokeAllGrants();
    vi.setSystemTime(Date.now() + 11_000);
    await client.renew();
    expect(client.getSnapshot().signOutReason).toBe('expired');
    const { deliver } = landInPopup(harness.provider.authorize(authorize));
    await harness.createClient({ storage: newStorage() }).start();
    deliver();
    await stepUp;
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(storedUsers(storage)).toHaveLength(1);
  });
});

describe('a redirect sign-in that ends another way than by leaving', () => {
  /** A popup that stays open (the user is typing a password). */
  const openPopup = () =>
    vi.spyOn(window, 'open').mockReturnValue({
      closed: false,
      close() {},
      focus() {},
      location: { replace() {} },
    } as unknown as Window);

  test('a sign-out meanwhile (redirect: false): a later sign-in redirects again', async () => {
    const client = await redirectUnderWay();
    await client.signOut({ redirect: false });
    expect(client.getSnapshot().status).toBe('unauthenticated');
    await vi.advanceTimersByTimeAsync(30_000);
    void client.signIn();
    await vi.waitFor(() => expect(harness.redirects).toHaveLength(2));
    expect(harness.redirects).toHaveLength(2);
  });

  test("another tab's sign-in reaches it: signIn() settles", async () => {
    harness = createHarness();
    const tab = await redirectUnderWay(() => harness.createClient({ storage: newStorage() }));
    const settled = vi.fn();
    void tab.signIn().then(settled);
    await harness.signIn(harness.createClient());
    await vi.waitFor(() => expect(tab.getSnapshot().status).toBe('authenticated'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(settled).toHaveBeenCalled();
  });

  test('a step-up redirect, then a stop and start (a remount): a later step-up redirects again', async () => {
    harness = createHarness();
    const { client } = await harness.signIn(harness.createClient(), { storage: newStorage() });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const seen = harness.redirects.length;
    void client.signIn({ prompt: 'login' });
    await vi.waitFor(() => expect(harness.redirects).toHaveLength(seen + 1));
    client.stop();
    void client.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(client.getSnapshot().status).toBe('authenticated');
    void client.signIn({ prompt: 'login' });
    await vi.waitFor(() => expect(harness.redirects).toHaveLength(seen + 2));
  });

  test('restored from the back-forward cache, then a popup sign-in and a remount: the popup is not cut off', async () => {
    const client = await redirectUnderWay();
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() => expect(client.getSnapshot().status).toBe('unauthenticated'));
    const open = openPopup();
    void client.signIn({ popup: true });
    await vi.advanceTimersByTimeAsync(200);
    expect(open).toHaveBeenCalled();
    client.stop();
    void client.start();
    await vi.advanceTimersByTimeAsync(16_000);
    expect(client.getSnapshot().status).toBe('signing-in');
  });
});

describe('an adoption that ends after a sign-out has begun in the same tab', () => {
  /**
   * A tab of `harness`'s session whose steps a test can hold: its user store is asynchronous (as an
   * app's own store, IndexedDB or encrypted, may be) and writes or removes a user at once but
   * answers only when `storing` or `removing` settles; its signature check waits for `verifying`.
   */
  async function heldTab() {
    const storage = newStorage();
    const inner = new WebStorageStateStore({ store: storage });
    const hold: { removing?: Deferred; storing?: Deferred; verifying?: Deferred } = {};
    const userStore: StateStore = {
      set: async (key, value) => {
        await inner.set(key, value);
        await hold.storing?.promise;
      },
      get: (key) => inner.get(key),
      getAllKeys: () => inner.getAllKeys(),
      remove: async (key) => {
        const removed = await inner.remove(key);
        await hold.removing?.promise;
        return removed;
      },
    };
    const verifySignature = vi.fn(async () => {
      await hold.verifying?.promise;
    });
    const tab = readyMadeTab(userStore, { verifySignature });
    await tab.start();
    expect(tab.getSnapshot().status).toBe('authenticated');
    return { tab, storage, hold, verifySignature };
  }

  test("another tab's renewal, adopted once the sign-out has let go of the session, does not bring it back", async () => {
    harness = createHarness();
    const { client: first } = await harness.signIn(harness.createClient());
    const { tab, storage, hold, verifySignature } = await heldTab();
    const statuses = recordStatuses(tab);
    // The first tab renews; the held tab starts adopting the renewal, and waits on its signature.
    hold.verifying = deferred();
    const checked = verifySignature.mock.calls.length;
    await passTokenFloor();
    await first.renew();
    await vi.waitFor(() => expect(verifySignature).toHaveBeenCalledTimes(checked + 1));
    // Sign-out lets go of the session and clears the stored user; the record is not removed yet.
    hold.removing = deferred();
    const signingOut = tab.signOut({ redirect: false });
    expect(tab.getSnapshot().status).toBe('signing-out');
    hold.verifying.resolve();
    // The adoption runs to its end while the sign-out still removes the stored user.
    await harness.caughtUp(tab);
    hold.removing.resolve();
    await signingOut;
    expect(statuses).toEqual(['authenticated', 'signing-out', 'unauthenticated']);
    expect(storedUsers(storage)).toEqual([]);
    expect(storageText(harness.shared)).not.toContain('oidc-kit:session:');
  });

  test("another tab's renewal, still being stored when the tab signs out, does not bring the session back", async () => {
    harness = createHarness();
    const { client: first } = await harness.signIn(harness.createClient());
    const { tab, storage, hold } = await heldTab();
    const statuses = recordStatuses(tab);
    // The first tab renews; the held tab adopts the renewal, and is storing it.
    hold.storing = deferred();
    const before = tab.getSnapshot().user?.access_token;
    await passTokenFloor();
    await first.renew();
    await vi.waitFor(() =>
      expect(storageText(storage)).toContain(first.getSnapshot().user?.access_token as string),
    );
    expect(tab.getSnapshot().user?.access_token).toBe(before);
    await tab.signOut({ redirect: false });
    expect(tab.getSnapshot().status).toBe('unauthenticated');
    hold.storing.resolve();
    await harness.caughtUp(tab);
    expect(statuses).toEqual(['authenticated', 'signing-out', 'unauthenticated']);
    expect(tab.getSnapshot().user).toBeNull();
    expect(storedUsers(storage)).toEqual([]);
  });

  test('a remount while the tab signs out does not take the session back from another tab', async () => {
    harness = createHarness();
    await harness.signIn(harness.createClient());
    const { tab, storage, hold } = await heldTab();
    const statuses = recordStatuses(tab);
    // Sign-out lets go of the session and clears the stored user; the record is not removed yet.
    hold.removing = deferred();
    const signingOut = tab.signOut({ redirect: false });
    expect(tab.getSnapshot().status).toBe('signing-out');
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The provider is unmounted and mounted again (a parent's key changed): the tab restores.
    tab.stop();
    const starting = tab.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    hold.removing.resolve();
    await signingOut;
    await expect(starting).resolves.toBeUndefined();
    await harness.caughtUp(tab);
    expect(statuses.slice(statuses.indexOf('signing-out'))).not.toContain('authenticated');
    expect(tab.getSnapshot()).toMatchObject({ status: 'unauthenticated', user: null });
    expect(storedUsers(storage)).toEqual([]);
  });
});

/**
 * Starts a popup sign-in on `tab` as bob (a newer session than alice's), answered at the provider;
 * `deliver()` hands the answer over once the popup's page has landed.
 */
async function popupSignInAsBob(tab: AuthClient) {
  const { authorizeUrl } = stubPopup();
  const signingIn = tab.signIn({ popup: true, prompt: 'login' });
  const bob = { sub: 'bob', name: 'Bob Stone', email: 'bob@example.com', roles: ['user'] };
  const { deliver } = landInPopup(harness.provider.authorize(await authorizeUrl(), bob));
  return { signingIn, deliver };
}

describe("a sign-in in this tab and another tab's older one at once", () => {
  test('the older session, adopted while this tab books its own, does not replace it', async () => {
    harness = createHarness();
    const storage = newStorage();
    const hold: { adopting?: Deferred; booking?: Deferred } = {};
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    // The tab checks signatures: the first check after `adopting` is set (another tab's session)
    // waits for it; the check of its own sign-in's user holds the next digest, which is the one
    // that books the new session's record.
    let holdNext = false;
    const verifySignature = vi.fn(async () => {
      if (holdNext) {
        holdNext = false;
        await hold.adopting?.promise;
      } else if (hold.booking !== undefined) {
        const booking = hold.booking;
        vi.spyOn(crypto.subtle, 'digest').mockImplementationOnce(async (algorithm, data) => {
          await booking.promise;
          return digest(algorithm, data);
        });
      }
    });
    const tab = harness.createClient({ storage, config: { verifySignature } });
    await tab.start();
    expect(tab.getSnapshot().status).toBe('unauthenticated');
    // Another tab signs in; this one starts adopting its session and waits on the signature.
    hold.adopting = deferred();
    holdNext = true;
    await harness.signIn(harness.createClient());
    await vi.waitFor(() => expect(verifySignature).toHaveBeenCalledTimes(1));
    // Meanwhile this tab signs in itself, in a popup, as bob: a newer session.
    const { signingIn, deliver } = await popupSignInAsBob(tab);
    hold.booking = deferred();
    await harness.createClient({ storage: newStorage() }).start();
    deliver();
    await vi.waitFor(() => expect(verifySignature).toHaveBeenCalledTimes(2));
    // Its session is being booked; the older session's adoption ends now.
    await new Promise((resolve) => setTimeout(resolve, 20));
    hold.adopting.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));
    hold.booking.resolve();
    await signingIn;
    await harness.caughtUp(tab);
    expect(tab.getSnapshot().user?.profile.sub).toBe('bob');
    // A reload with no other tab left finds this tab's own, newer session in its store.
    harness.dispose();
    const reloaded = harness.createClient({ storage });
    await reloaded.start();
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    expect(reloaded.getSnapshot().user?.profile.sub).toBe('bob');
  });
});

describe('a redirect callback processed while another tab signs out', () => {
  /**
   * Tab A, signed in to the session B holds, signs in again by redirect; its page lands on the
   * callback with the token request held, and tab B signs out meanwhile.
   */
  async function landingWhileOtherSignsOut() {
    harness = createHarness();
    const storage = newStorage();
    const { client: other } = await harness.signIn(harness.createClient());
    const before = (other.getSnapshot().user as { id_token?: string }).id_token;
    const tab = harness.createClient({ storage });
    await tab.start();
    expect(tab.getSnapshot().status).toBe('authenticated');
    const waiting = harness.nextRedirect();
    void tab.signIn({ prompt: 'login' });
    const callbackUrl = harness.provider.authorize(await waiting);
    // The page left for the provider: what it had stored stays in the tab's storage.
    tab.dispose();
    expect(storedUsers(storage)).toHaveLength(1);
    history.replaceState(null, '', callbackUrl);
    harness.provider.options.tokenDelay = 200;
    const tokenRequests = harness.provider.count('token');
    const landed = harness.createClient({ storage });
    const landing = landed.start();
    await vi.waitFor(() => expect(harness.provider.count('token')).toBe(tokenRequests + 1));
    await other.signOut({ redirect: false });
    expect(other.getSnapshot().status).toBe('unauthenticated');
    return { storage, other, landed, landing, before };
  }

  test('a sign-in that succeeds after the sign-out is a new session: it stands, stored and recorded', async () => {
    const { storage, landed, landing, before } = await landingWhileOtherSignsOut();
    await landing;
    expect(landed.getSnapshot().status).toBe('authenticated');
    expect((landed.getSnapshot().user as { id_token?: string }).id_token).not.toBe(before);
    expect(storedUsers(storage)).toHaveLength(1);
    // A reload finds it: its record was written after the sign-out removed the old one.
    harness.dispose();
    const reloaded = harness.createClient({ storage });
    await reloaded.start();
    expect(reloaded.getSnapshot().status).toBe('authenticated');
  });

  test('a sign-in that fails after the sign-out does not bring the signed-out session back', async () => {
    const { storage, landed, landing } = await landingWhileOtherSignsOut();
    harness.provider.options.idTokenClaims = (claims) => ({ ...claims, aud: 'another-client' });
    await landing;
    expect(landed.getSnapshot()).toMatchObject({ status: 'error', user: null });
    expect(landed.getSnapshot().error?.code).toBe('id_token_invalid');
    expect(storedUsers(storage)).toEqual([]);
    expect(storageText(harness.shared)).not.toContain('oidc-kit:session:');
  });
});

describe("a sign-in in this tab and another tab's older one at once, with an asynchronous user store", () => {
  test("the older session's write, still under way when this tab's sign-in is stored, does not replace it", async () => {
    harness = createHarness();
    const storage = newStorage();
    const inner = new WebStorageStateStore({ store: storage });
    // A store whose next write, once `held` is set, waits for it before writing (IndexedDB, say).
    const hold: { held?: Deferred; writing?: Deferred } = {};
    const userStore: StateStore = {
      set: async (key, value) => {
        const held = hold.held;
        hold.held = undefined;
        if (held !== undefined) {
          hold.writing?.resolve();
          await held.promise;
        }
        await inner.set(key, value);
      },
      get: (key) => inner.get(key),
      getAllKeys: () => inner.getAllKeys(),
      remove: (key) => inner.remove(key),
    };
    const tab = readyMadeTab(userStore);
    await tab.start();
    expect(tab.getSnapshot().status).toBe('unauthenticated');
    // Another tab signs in; this one adopts its session, and its write of alice waits.
    const held = deferred();
    hold.held = held;
    hold.writing = deferred();
    await harness.signIn(harness.createClient());
    await hold.writing.promise;
    // Meanwhile this tab signs in itself, in a popup, as bob: a newer session, stored at once.
    const { signingIn, deliver } = await popupSignInAsBob(tab);
    await harness.createClient({ storage: newStorage() }).start();
    deliver();
    await vi.waitFor(() => expect(storage.getItem(storedUsers(storage)[0] ?? '')).toContain('bob'));
    // The older session's write ends now; its adoption gives way to the sign-in (never shown).
    const shown: (string | undefined)[] = [];
    const unsubscribe = tab.subscribe(() => shown.push(tab.getSnapshot().user?.profile.sub));
    held.resolve();
    await signingIn;
    await harness.caughtUp(tab);
    unsubscribe();
    expect(shown).not.toContain('alice');
    expect(tab.getSnapshot().user?.profile.sub).toBe('bob');
    expect(storage.getItem(storedUsers(storage)[0] ?? '')).toContain('"sub":"bob"');
    // A reload with no other tab left finds this tab's own, newer session in its store.
    harness.dispose();
    tab.dispose();
    const reloaded = harness.createClient({ storage });
    await reloaded.start();
    expect(reloaded.getSnapshot().status).toBe('authenticated');
    expect(reloaded.getSnapshot().user?.profile.sub).toBe('bob');
  });
});

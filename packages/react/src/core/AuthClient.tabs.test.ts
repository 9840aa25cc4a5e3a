import { setTimeout as realDelay } from 'node:timers/promises';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { copyStorage, createHarness, newStorage, storedUsers } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import { passTokenFloor } from '../../test/support/passTokenFloor';
import type { LockManagerLike } from './tabSync';
import { createLockManager } from '../../test/support/createLockManager';
import { laggingViews } from '../../test/support/laggingViews';
import { recordedSession } from '../../test/support/chaosChecks';
import { SessionSharing } from './SessionSharing';
import { RefreshGuard } from './refreshGuard';
import { deferred } from '../../test/support/deferred';
import type { FakeUser } from '../../test/support/FakeProvider';

const bob: FakeUser = { sub: 'bob', name: 'Bob Stone', email: 'bob@example.com', roles: ['user'] };

let harness: Harness;
afterEach(() => harness?.dispose());

async function twoTabs(options: { locks?: LockManagerLike } = {}) {
  harness = createHarness();
  const firstStorage = newStorage();
  const { client: first } = await harness.signIn(harness.createClient(), {
    storage: firstStorage,
  });
  history.replaceState(null, '', '/dashboard');
  const secondStorage = newStorage();
  const second = harness.createClient({
    storage: secondStorage,
    environment: { locks: options.locks ?? null },
  });
  await second.start();
  return { first, second, firstStorage, secondStorage };
}

/**
 * A harness whose second view of the shared storage sees the session record 300 ms late (with its
 * `storage` event then): a tab signing in through the first view, and the view a lagging tab uses.
 */
function lateRecord() {
  harness = createHarness();
  const [signing, lagging] = laggingViews(
    harness.shared,
    300,
    (key) => key.startsWith('oidc-kit:session:'),
    true,
  );
  const environment = { sharedStorage: signing };
  const signInElsewhere = () =>
    harness.signIn(harness.createClient({ environment }), { environment });
  return { signInElsewhere, lagging };
}

describe('tabs share one session', () => {
  test('a new tab picks up the open tab’s session with no request to the provider', async () => {
    harness = createHarness();
    const { client: first } = await harness.signIn(harness.createClient());
    const before = harness.provider.providerRequests();
    history.replaceState(null, '', '/dashboard');
    const storage = newStorage();
    const second = harness.createClient({ storage });
    await second.start();
    expect(second.getSnapshot().status).toBe('authenticated');
    expect(second.getSnapshot().user?.access_token).toBe(first.getSnapshot().user?.access_token);
    expect(harness.provider.providerRequests()).toBe(before);
    expect(storedUsers(storage)).toHaveLength(1);
  });

  test('signing out in one tab signs the other out within a second', async () => {
    const { first, second, secondStorage } = await twoTabs();
    await first.signOut({ redirect: false });
    await vi.waitFor(() => expect(second.getSnapshot().status).toBe('unauthenticated'), {
      timeout: 1000,
    });
    expect(second.getSnapshot().error?.code).toBe('signed_out_elsewhere');
    expect(storedUsers(secondStorage)).toEqual([]);
  });

  test('signing in in one tab reaches an open, signed-out tab', async () => {
    harness = createHarness();
    const waiting = harness.createClient();
    await waiting.start();
    expect(waiting.getSnapshot().status).toBe('unauthenticated');
    await harness.signIn(harness.createClient());
    await vi.waitFor(() => expect(waiting.getSnapshot().status).toBe('authenticated'), {
      timeout: 1000,
    });
    expect(waiting.getSnapshot().user?.profile.sub).toBe('alice');
  });

  test("signing in in one tab reaches an open, signed-out tab that hears of it before it sees the sign-in's record", async () => {
    const { signInElsewhere, lagging } = lateRecord();
    const waiting = harness.createClient({ environment: { sharedStorage: lagging } });
    await waiting.start();
    expect(waiting.getSnapshot().status).toBe('unauthenticated');
    const messages = harness.recordMessages();
    await signInElsewhere();
    await vi.waitFor(() =>
      expect(messages).toContainEqual(expect.objectContaining({ type: 'signed-in' })),
    );
    await vi.waitFor(() => expect(waiting.getSnapshot().status).toBe('authenticated'), {
      timeout: 2000,
    });
    expect(waiting.getSnapshot().user?.profile.sub).toBe('alice');
  });

  test("a tab opened as another tab signs in, before the sign-in's record reaches it, takes the session when the record does", async () => {
    const { signInElsewhere, lagging } = lateRecord();
    await signInElsewhere();
    history.replaceState(null, '', '/dashboard');
    const opened = harness.createClient({ environment: { sharedStorage: lagging } });
    await opened.start();
    expect(opened.getSnapshot().status).toBe('unauthenticated');
    await vi.waitFor(() => expect(opened.getSnapshot().status).toBe('authenticated'), {
      timeout: 2000,
    });
    expect(opened.getSnapshot().user?.profile.sub).toBe('alice');
  });

  test('signing out in a signed-out tab that has not taken a newer sign-in yet ends that sign-in in every tab', async () => {
    harness = createHarness();
    const waiting = harness.createClient();
    await waiting.start();
    const { client: signedIn } = await harness.signIn(harness.createClient());
    // It has heard nothing yet: it signs out of no session of its own.
    expect(waiting.getSnapshot().status).toBe('unauthenticated');
    await waiting.signOut({ redirect: false });
    await vi.waitFor(() => expect(signedIn.getSnapshot().status).toBe('unauthenticated'), {
      timeout: 1000,
    });
    expect(signedIn.getSnapshot().error?.code).toBe('signed_out_elsewhere');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(waiting.getSnapshot().status).toBe('unauthenticated');
    expect(recordedSession(harness.shared)).toBeNull();
  });

  test('a tab that has not taken a newer sign-in yet signs out when that sign-in ends', async () => {
    const { second } = await twoTabs();
    const { client: newer } = await harness.signIn(harness.createClient());
    await newer.signOut({ redirect: false });
    // No storage event here (as when one is lost): the sign-out's message alone must do.
    await vi.waitFor(() => expect(second.getSnapshot().status).toBe('unauthenticated'), {
      timeout: 1000,
    });
    expect(second.getSnapshot().error?.code).toBe('signed_out_elsewhere');
  });

  test('a renewal in one tab reaches the other', async () => {
    const { first, second } = await twoTabs();
    await passTokenFloor();
    const renewed = await first.renew();
    await vi.waitFor(() =>
      expect(second.getSnapshot().user?.access_token).toBe(renewed?.access_token),
    );
  });

  test('invalid_grant on renewal ends the session in every tab', async () => {
    const { first, second, secondStorage } = await twoTabs();
    harness.provider.revokeAllGrants();
    await passTokenFloor();
    await first.renew();
    await vi.waitFor(() => expect(second.getSnapshot().status).toBe('unauthenticated'));
    expect(second.getSnapshot().error?.code).toBe('session_expired');
    expect(storedUsers(secondStorage)).toEqual([]);
  });
});

describe("storage: 'memory': answers go to the request that asked", () => {
  test('a tab opened beside two others renews through the holder, not with a late answer to its first request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      harness = createHarness({ providerSession: false });
      const memory = { storage: 'memory' as const };
      await harness.signIn(harness.createClient({ config: memory }), {
        storage: newStorage(),
        config: memory,
      });
      const open = async () => {
        const client = harness.createClient({ storage: newStorage(), config: memory });
        await client.start();
        return client;
      };
      await open();
      // Two tabs answer its session request: the second answer must not count for a later one.
      const newest = await open();
      vi.setSystemTime(Date.now() + 11_000);
      await newest.renew();
      expect(newest.getSnapshot().status).toBe('authenticated');
      expect(harness.provider.count('refresh')).toBe(1);
      expect(harness.silentAuthorizations).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("storage: 'memory': a tab without the refresh token asks only while a tab holds it", () => {
  const memory = { storage: 'memory' as const };

  /** Tab A signs in (it holds the refresh token), tab B joins it; both share one lock manager. */
  async function holderAndFollower() {
    harness = createHarness();
    const locks = createLockManager();
    const environment = { locks };
    const { client: holder } = await harness.signIn(
      harness.createClient({ config: memory, environment }),
      { storage: newStorage(), config: memory, environment },
    );
    history.replaceState(null, '', '/dashboard');
    const follower = harness.createClient({ storage: newStorage(), config: memory, environment });
    await follower.start();
    expect(follower.getSnapshot().status).toBe('authenticated');
    return { holder, follower, locks };
  }

  test('while the holder is open, a renewal goes through it', async () => {
    const { holder, follower } = await holderAndFollower();
    await passTokenFloor();
    const renewed = await follower.renew();
    expect(harness.provider.count('refresh')).toBe(1);
    expect(renewed?.access_token).toBe(holder.getSnapshot().user?.access_token);
    expect(harness.silentAuthorizations).toEqual([]);
  });

  test('the holder lets go of its lock while in the back-forward cache, and holds it again when back', async () => {
    const { locks } = await holderAndFollower();
    expect(locks.holding).toEqual([expect.stringMatching(/^oidc-kit:refresh:/)]);
    // A page that keeps a lock through pagehide is not kept in the back-forward cache: with memory
    // storage, a single tab's session would be gone on Back.
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    await vi.waitFor(() => expect(locks.holding).toEqual([]));
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() =>
      expect(locks.holding).toEqual([expect.stringMatching(/^oidc-kit:refresh:/)]),
    );
  });

  test('once the holder is closed, a renewal waits for no answer: it renews at once, without the token', async () => {
    const { holder, follower, locks } = await holderAndFollower();
    const before = follower.getSnapshot().user?.access_token;
    // The page goes: its channel, and the lock it held, with it.
    holder.dispose();
    await vi.waitFor(() => expect(locks.holding).toEqual([]));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      vi.setSystemTime(Date.now() + 11_000);
      // The page's clock stands still: a renewal that waits for an answer (`timeout` + 1 s) or for
      // any other timer never settles.
      const renewed = await Promise.race([
        follower.renew(),
        realDelay(5_000).then(() => 'still waiting' as const),
      ]);
      expect(renewed, 'still renewing after 5 s with no time passing on the page').not.toBe(
        'still waiting',
      );
      expect(renewed === 'still waiting' ? null : renewed?.access_token).not.toBe(before);
      expect(follower.getSnapshot().status).toBe('authenticated');
      expect(harness.provider.count('refresh')).toBeLessThanOrEqual(1);
      expect(harness.provider.reusedRefreshTokens).toEqual([]);
      // It holds the refresh token of its silent authorize now, and says so to the tabs to come.
      expect(locks.holding).toEqual([expect.stringMatching(/^oidc-kit:refresh:/)]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("storage: 'memory': tokens a tab could not renew", () => {
  test('are not taken back from another tab once the session ended here (its holder gone, its grant ended)', async () => {
    harness = createHarness();
    // No Web Locks: no tab can tell that the holder is gone, so a failed renewal ends its tab only.
    const memory = { storage: 'memory' as const, timeout: 1000 };
    const { client: holder } = await harness.signIn(harness.createClient({ config: memory }), {
      storage: newStorage(),
      config: memory,
    });
    const open = async () => {
      const client = harness.createClient({ storage: newStorage(), config: memory });
      await client.start();
      expect(client.getSnapshot().status).toBe('authenticated');
      return client;
    };
    const failing = await open();
    const other = await open();
    const dead = failing.getSnapshot().user?.access_token;
    expect(other.getSnapshot().user?.access_token).toBe(dead);
    // The tab that held the refresh token closes; the provider ends the grant and its session.
    holder.dispose();
    harness.provider.revokeAllGrants();
    harness.provider.options.providerSession = false;
    await passTokenFloor();
    await failing.renew().catch(() => undefined);
    expect(failing.getSnapshot().status).toBe('unauthenticated');
    // Back from the back-forward cache, it asks the tabs for the session the record still names:
    // the one that answers has only the tokens that just failed here.
    const adopt = vi.spyOn(SessionSharing.prototype, 'adopt');
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await vi.waitFor(() => expect(adopt).toHaveBeenCalled());
    await adopt.mock.results[0]?.value;
    await realDelay(0);
    expect(failing.getSnapshot().status).toBe('unauthenticated');
    expect(failing.getSnapshot().user?.access_token).not.toBe(dead);
  });

  test('end only the tab that failed: the holder, in the back-forward cache, keeps a session it can still renew', async () => {
    harness = createHarness();
    const memory = { storage: 'memory' as const };
    const environment = { locks: createLockManager() };
    const { client: holder } = await harness.signIn(
      harness.createClient({ config: memory, environment }),
      { storage: newStorage(), config: memory, environment },
    );
    const follower = harness.createClient({ storage: newStorage(), config: memory, environment });
    await follower.start();
    expect(follower.getSnapshot().status).toBe('authenticated');
    // The holder's page goes into the back-forward cache: it lets go of its lock, so that the
    // Web Locks API cannot tell it from a closed one.
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    await vi.waitFor(() => expect(environment.locks.holding).toEqual([]));
    // The follower cannot authorize silently (the provider session is gone, or its cookie blocked).
    harness.provider.options.providerSession = false;
    await passTokenFloor();
    await follower.renew().catch(() => undefined);
    expect(follower.getSnapshot().error?.code).toBe('session_expired');
    // Back: the holder's refresh token is current and its grant alive.
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await harness.caughtUp(holder);
    expect(holder.getSnapshot().status).toBe('authenticated');
    await passTokenFloor();
    expect((await holder.renew())?.access_token).toBeDefined();
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
  });

  test('a session taken while a failed renewal decides how far it ends (a sign-in in another tab) is not ended by it', async () => {
    harness = createHarness();
    const memory = { storage: 'memory' as const };
    const environment = { locks: createLockManager() };
    const tab = () => harness.createClient({ config: memory, environment, storage: newStorage() });
    const { client: holder } = await harness.signIn(tab(), {
      storage: newStorage(),
      config: memory,
      environment,
    });
    const follower = tab();
    await follower.start();
    expect(follower.getSnapshot().status).toBe('authenticated');
    holder.dispose();
    await vi.waitFor(() => expect(environment.locks.holding).toEqual([]));
    harness.provider.options.providerSession = false;
    await passTokenFloor();
    // The renewal (no refresh token here, no holder open) authorizes silently and meets
    // login_required; it is held where it asks whether another tab may renew.
    const deciding = deferred();
    const isCurrent = RefreshGuard.prototype.isCurrent;
    const asked = vi.spyOn(RefreshGuard.prototype, 'isCurrent').mockImplementation(async function (
      this: RefreshGuard,
      ...args
    ) {
      await deciding.promise;
      return isCurrent.apply(this, args);
    });
    const renewing = follower.renew().catch(() => undefined);
    await vi.waitFor(() => expect(asked).toHaveBeenCalled());
    // Meanwhile Bob signs in in another tab, and this tab takes his session.
    await harness.signIn(tab(), { user: bob, storage: newStorage(), config: memory, environment });
    await vi.waitFor(() => expect(follower.getSnapshot().user?.profile.sub).toBe('bob'));
    deciding.resolve();
    await renewing;
    await harness.caughtUp(follower);
    expect(follower.getSnapshot().status).toBe('authenticated');
    expect(follower.getSnapshot().user?.profile.sub).toBe('bob');
  });
});

describe('renewal is serialised across tabs', () => {
  test.each([
    ['the Web Locks API', true],
    ['the in-page lock', false],
  ])('two tabs renewing at once send one refresh request (%s)', async (_label, useLocks) => {
    const locks = useLocks ? createLockManager() : undefined;
    harness = createHarness();
    const firstStorage = newStorage();
    const { client: first } = await harness.signIn(
      harness.createClient({ environment: { locks: locks ?? null } }),
      { storage: firstStorage },
    );
    // The landed client was made by the harness without the lock manager; use fresh tabs.
    first.dispose();
    const a = harness.createClient({
      storage: firstStorage,
      environment: { locks: locks ?? null },
    });
    await a.start();
    const b = harness.createClient({ environment: { locks: locks ?? null } });
    await b.start();
    expect(b.getSnapshot().status).toBe('authenticated');

    await passTokenFloor();
    const [fromA, fromB] = await Promise.all([a.renew(), b.renew()]);
    expect(harness.provider.count('refresh')).toBe(1);
    expect(fromA?.access_token).toBe(fromB?.access_token);
    expect(a.getSnapshot().status).toBe('authenticated');
    expect(b.getSnapshot().status).toBe('authenticated');
    if (locks) expect(locks.requests).toHaveLength(2);
  });

  test('a tab whose refresh token was used elsewhere asks for the new tokens instead', async () => {
    // Tab B holds the refresh token tab A has just used, and missed A's "renewed" message:
    // sending it again would make the provider revoke the whole grant (reuse detection).
    const { first, firstStorage } = await twoTabs();
    const staleStorage = copyStorage(firstStorage);
    await passTokenFloor();
    const renewed = await first.renew();
    expect(harness.provider.count('refresh')).toBe(1);

    const stale = harness.createClient({ storage: staleStorage });
    await stale.start();
    expect(stale.getSnapshot().user?.access_token).not.toBe(renewed?.access_token);
    const fromStale = await stale.renew();
    expect(harness.provider.count('refresh')).toBe(1);
    expect(fromStale?.access_token).toBe(renewed?.access_token);
    expect(stale.getSnapshot().status).toBe('authenticated');
  });

  test('with no tab to ask, the used token is still not sent: a silent authorize renews', async () => {
    const { first, second, firstStorage } = await twoTabs();
    const staleStorage = copyStorage(firstStorage);
    await passTokenFloor();
    await first.renew();
    first.dispose();
    second.dispose();
    const stale = harness.createClient({ storage: staleStorage });
    await stale.start();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11_000);
    const renewed = await stale.renew();
    vi.useRealTimers();
    expect(harness.provider.count('refresh')).toBe(1);
    expect(harness.provider.reusedRefreshTokens).toEqual([]);
    expect(harness.silentAuthorizations).toHaveLength(1);
    expect(renewed?.access_token).toBeDefined();
    expect(stale.getSnapshot().status).toBe('authenticated');
  });
});

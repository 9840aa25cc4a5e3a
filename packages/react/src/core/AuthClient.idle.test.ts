import { afterEach, describe, expect, test, vi } from 'vitest';
import { createHarness, newStorage, recordStatuses } from '../../test/support/harness';
import type { Harness } from '../../test/support/harness';
import type { AuthClient } from './AuthClient';
import { createLockManager } from '../../test/support/createLockManager';
import { laggingViews } from '../../test/support/laggingViews';

let harness: Harness;
afterEach(() => {
  vi.useRealTimers();
  harness?.dispose();
});

const defaultIdle = { timeout: 60_000, warning: 20_000 };

/** Two signed-in tabs with idle sign-out, each with its own input, on a fake clock. */
async function twoTabs(
  idle: { timeout: number; warning?: number } = defaultIdle,
  options: {
    lag?: number;
    /** With `lag`: a write that lands fires a `storage` event, as a browser does in other tabs. */
    events?: boolean;
    secondDeaf?: () => boolean;
    shared?: (shared: Storage) => Storage;
  } = {},
) {
  harness = createHarness();
  const inputs = [new EventTarget(), new EventTarget()] as const;
  // Where each tab's app is sent within the app (the signed-out page, after an idle sign-out).
  const pages: [string[], string[]] = [[], []];
  // The tabs' own Web Locks: a tab that left for the provider's logout holds the idle lock a while.
  const locks = createLockManager();
  const views =
    options.lag === undefined
      ? options.shared === undefined
        ? undefined
        : ([options.shared(harness.shared), options.shared(harness.shared)] as const)
      : laggingViews(
          harness.shared,
          options.lag,
          (key) => key.startsWith('oidc-kit:idle:'),
          options.events,
        );
  const firstStorage = newStorage();
  const { client: first } = await harness.signIn(harness.createClient({ config: { idle } }), {
    config: { idle },
    storage: firstStorage,
  });
  // The landed tab was made by the harness: the first tab is made again, with its own input.
  first.dispose();
  const a = harness.createClient({
    storage: firstStorage,
    config: { idle },
    environment: {
      inputTarget: inputs[0],
      navigate: (path) => pages[0].push(path),
      locks,
      ...(views === undefined ? {} : { sharedStorage: views[0] }),
    },
  });
  await a.start();
  const b = harness.createClient({
    storage: newStorage(),
    config: { idle },
    environment: {
      inputTarget: inputs[1],
      navigate: (path) => pages[1].push(path),
      locks,
      ...(views === undefined ? {} : { sharedStorage: views[1] }),
      ...(options.secondDeaf === undefined
        ? {}
        : { createChannel: harness.deafenableChannel(options.secondDeaf) }),
    },
  });
  await b.start();
  // Each tab's idle clock comes with a chunk of its own: on a loaded machine that takes a while.
  await vi.waitFor(
    () => {
      expect(a.idle.getSnapshot().deadline).not.toBeNull();
      expect(b.idle.getSnapshot().deadline).not.toBeNull();
    },
    { timeout: 5_000 },
  );
  // From here on a fake clock (the wall clock and the monotonic one); "stay" restarts both tabs'
  // clocks on it, from now.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  a.idle.stay();
  await vi.waitFor(() => expect(b.idle.getSnapshot().deadline).toBe(a.idle.getSnapshot().deadline));
  return { a, b, inputs, pages };
}

const status = (client: AuthClient) => client.idle.getSnapshot().status;
const input = (target: EventTarget) => target.dispatchEvent(new Event('pointerdown'));

describe('idle sign-out across tabs', () => {
  test('the warning shows in every tab at the same time; at the end every tab signs out (idle), one at the provider', async () => {
    const { a, b, pages } = await twoTabs();
    await vi.advanceTimersByTimeAsync(39_000);
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    expect(a.idle.getSnapshot().deadline).toBe(b.idle.getSnapshot().deadline);

    const redirects = harness.redirects.length;
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot()).toMatchObject({ status: 'unauthenticated', signOutReason: 'idle' });
    });
    const logouts = harness.redirects.slice(redirects).filter((url) => url.includes('/logout'));
    expect(logouts).toHaveLength(1);
    // The tab that followed shows the signed-out page; the other left for the provider's logout.
    const [leader, follower] =
      a.getSnapshot().status === 'signing-out' ? [pages[0], pages[1]] : [pages[1], pages[0]];
    expect(follower).toEqual(['/signed-out']);
    expect(leader).toEqual([]);
  });

  test("one logout at the provider even when a tab reads the shared record before the other's mark reaches it", async () => {
    let deaf = false;
    // The second tab sees the first one's idle record a second late, and at the end hears no message.
    const { a, b } = await twoTabs(defaultIdle, { lag: 1_000, secondDeaf: () => deaf });
    await vi.advanceTimersByTimeAsync(59_000);
    deaf = true;
    const redirects = harness.redirects.length;
    await vi.advanceTimersByTimeAsync(8_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot().status).not.toBe('authenticated');
    });
    const logouts = harness.redirects.slice(redirects).filter((url) => url.includes('/logout'));
    expect(logouts).toHaveLength(1);
    // One tab left for the provider's logout; the other signed out here, for inactivity.
    const snapshots = [a.getSnapshot(), b.getSnapshot()].sort((x, y) =>
      x.status.localeCompare(y.status),
    );
    expect(snapshots.map((snapshot) => snapshot.status)).toEqual([
      'signing-out',
      'unauthenticated',
    ]);
    expect(snapshots[1]?.signOutReason).toBe('idle');
  });

  test('a tab that sees the session record go before the message that says why still lands on the signed-out page (idle)', async () => {
    let deaf = false;
    const { a, b, pages } = await twoTabs(defaultIdle, { secondDeaf: () => deaf });
    await vi.advanceTimersByTimeAsync(59_000);
    deaf = true;
    await vi.advanceTimersByTimeAsync(2_000);
    // The first tab leads (its timers run first) and holds the idle lock while it leaves.
    await vi.waitFor(() => expect(a.getSnapshot().status).toBe('signing-out'));
    expect(b.getSnapshot().status).toBe('authenticated');
    // The second tab hears nothing, but comes back to the foreground: it reads the shared record.
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    expect(b.getSnapshot()).toMatchObject({
      status: 'unauthenticated',
      signOutReason: 'idle',
      error: null,
    });
    expect(pages[1]).toEqual(['/signed-out']);
  });

  test('input shared late (at most one message per 5 s) ends a warning another tab already shows', async () => {
    // The warning begins 4 s after the last input, sooner than a held-back share may arrive.
    const { a, b, inputs } = await twoTabs({ timeout: 24_000, warning: 20_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    input(inputs[1]); // shared at once
    await vi.advanceTimersByTimeAsync(3_500);
    input(inputs[1]); // held back until 5 s after the last share
    await vi.advanceTimersByTimeAsync(1_000);
    expect([status(a), status(b)]).toEqual(['warning', 'active']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    expect(a.idle.getSnapshot().deadline).toBe(b.idle.getSnapshot().deadline);
  });

  test('input in one tab keeps both alive; input is shared at most once per few seconds', async () => {
    const { a, b, inputs } = await twoTabs();
    const messages = harness.recordMessages();
    for (let second = 0; second < 50; second += 1) {
      await vi.advanceTimersByTimeAsync(1_000);
      input(inputs[1]);
    }
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    await vi.advanceTimersByTimeAsync(30_000);
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    const idleMessages = messages.filter((m) => (m as { type: string }).type === 'idle');
    expect(idleMessages.length).toBeGreaterThan(0);
    expect(idleMessages.length).toBeLessThanOrEqual(11);
  });

  test('once the warning shows, input does not end it; "stay" in one tab ends it in both', async () => {
    const { a, b, inputs } = await twoTabs();
    await vi.advanceTimersByTimeAsync(41_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    input(inputs[0]);
    input(inputs[1]);
    await vi.advanceTimersByTimeAsync(6_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);

    b.idle.stay();
    await vi.waitFor(() => expect([status(a), status(b)]).toEqual(['active', 'active']));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(a.getSnapshot().status).toBe('authenticated');
  });

  test('"stay" in one tab ends the warning in another that missed the message, once the shared record reaches it', async () => {
    let deaf = false;
    // The second tab sees the first one's idle record half a second late, with a storage event.
    const { a, b } = await twoTabs(defaultIdle, { lag: 500, events: true, secondDeaf: () => deaf });
    await vi.advanceTimersByTimeAsync(41_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    deaf = true;
    a.idle.stay();
    expect(status(a)).toBe('active');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(status(b)).toBe('active');
    expect(b.idle.getSnapshot().deadline).toBe(a.idle.getSnapshot().deadline);
  });

  test('stopped, the clock leaves no storage listener behind', async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient({ config: { idle: defaultIdle } }), {
      config: { idle: defaultIdle },
      storage,
    });
    const client = harness.createClient({
      storage,
      config: { idle: defaultIdle },
      environment: { inputTarget: new EventTarget() },
    });
    await client.start();
    await vi.waitFor(() => expect(client.idle.getSnapshot().deadline).not.toBeNull());
    const removed = vi.spyOn(globalThis, 'removeEventListener');
    const added = vi.spyOn(globalThis, 'addEventListener');
    client.stop();
    const stopped = removed.mock.calls.filter(([type]) => type === 'storage').length;
    // Started again, it listens as before; stopped again, it leaves as many behind as before.
    await client.start();
    await vi.waitFor(() => expect(client.idle.getSnapshot().deadline).not.toBeNull());
    const listening = added.mock.calls.filter(([type]) => type === 'storage').map(([, l]) => l);
    expect(listening.length).toBe(stopped);
    removed.mockClear();
    client.stop();
    const left = removed.mock.calls.filter(([type]) => type === 'storage').map(([, l]) => l);
    expect(left).toEqual(expect.arrayContaining(listening));
  });

  test('a tab that slept past the end signs out within a second of waking', async () => {
    const { a } = await twoTabs();
    // The machine sleeps: no timer runs, the wall clock jumps.
    vi.setSystemTime(Date.now() + 120_000);
    await vi.advanceTimersByTimeAsync(1_000);
    // The sign-out has begun (it then leaves for the provider's logout page).
    for (let step = 0; step < 50 && a.getSnapshot().status === 'authenticated'; step += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(a.getSnapshot().status).not.toBe('authenticated');
  });

  test('input that reaches a tab that slept past the end (before its timer runs) ends the session', async () => {
    const { a, b, inputs } = await twoTabs();
    vi.setSystemTime(Date.now() + 120_000);
    // On waking, the window gets focus before the overdue timer step runs.
    inputs[0].dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot().status).not.toBe('authenticated');
    });
  });

  test('"stay" after the end (the warning left open while asleep) ends the session', async () => {
    const { a } = await twoTabs();
    await vi.advanceTimersByTimeAsync(41_000);
    expect(status(a)).toBe('warning');
    vi.setSystemTime(Date.now() + 120_000);
    a.idle.stay();
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(a.getSnapshot().status).not.toBe('authenticated'));
  });

  test('stopped and started again (the provider remounted): the clock runs again', async () => {
    const { a, b } = await twoTabs();
    b.dispose();
    a.stop();
    await a.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(a.idle.getSnapshot().deadline).not.toBeNull();
    await vi.advanceTimersByTimeAsync(70_000);
    await vi.waitFor(() => expect(a.getSnapshot().status).not.toBe('authenticated'));
  });

  test("StrictMode's start, stop, start listens to input once", async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient({ config: { idle: defaultIdle } }), {
      config: { idle: defaultIdle },
      storage,
    });
    const target = new EventTarget();
    const listen = vi.spyOn(target, 'addEventListener');
    const client = harness.createClient({
      storage,
      config: { idle: defaultIdle },
      environment: { inputTarget: target },
    });
    void client.start();
    client.stop();
    await client.start();
    await vi.waitFor(() => expect(client.idle.getSnapshot().deadline).not.toBeNull());
    expect(listen.mock.calls.filter(([type]) => type === 'pointerdown')).toHaveLength(1);
  });

  test("on the window, events a script dispatches are not a person's input", async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient({ config: { idle: defaultIdle } }), {
      config: { idle: defaultIdle },
      storage,
    });
    const client = harness.createClient({ storage, config: { idle: defaultIdle } });
    await client.start();
    await vi.waitFor(() => expect(client.idle.getSnapshot().deadline).not.toBeNull());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    client.idle.stay();
    for (let second = 0; second < 70; second += 5) {
      await vi.advanceTimersByTimeAsync(5_000);
      window.dispatchEvent(new Event('pointerdown'));
      window.dispatchEvent(new Event('keydown'));
    }
    await vi.waitFor(() => expect(client.getSnapshot().status).not.toBe('authenticated'));
  });

  test('an auto-scrolling page (scroll events, on a target given) is not activity', async () => {
    const { a, inputs } = await twoTabs();
    for (let second = 0; second < 70; second += 5) {
      await vi.advanceTimersByTimeAsync(5_000);
      inputs[0].dispatchEvent(new Event('scroll'));
    }
    await vi.waitFor(() => expect(a.getSnapshot().status).not.toBe('authenticated'));
  });

  test('a timeout shorter than the default warning: input keeps the session, the warning comes later', async () => {
    const { a, inputs } = await twoTabs({ timeout: 30_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(status(a)).toBe('active');
    for (let second = 0; second < 40; second += 1) {
      await vi.advanceTimersByTimeAsync(1_000);
      input(inputs[0]);
    }
    expect(status(a)).toBe('active');
    expect(a.getSnapshot().status).toBe('authenticated');
  });

  test('renewals, API calls and timers are not activity: the warning comes on time', async () => {
    const { a, b } = await twoTabs();
    await vi.advanceTimersByTimeAsync(15_000);
    await a.renew();
    await a.fetch(`${harness.provider.apiOrigin}/orders`);
    await vi.advanceTimersByTimeAsync(10_000);
    await b.renew();
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    await vi.advanceTimersByTimeAsync(16_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
  });

  test('inert while nobody is signed in: no deadline, no warning, input changes nothing', async () => {
    harness = createHarness();
    const target = new EventTarget();
    const client = harness.createClient({
      config: { idle: defaultIdle },
      environment: { inputTarget: target },
    });
    await client.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    input(target);
    expect(client.getSnapshot().status).toBe('unauthenticated');
    expect(client.idle.getSnapshot()).toEqual({ status: 'active', deadline: null });
  });

  test('off when not configured: no deadline, no warning, no input listened to', async () => {
    harness = createHarness();
    const storage = newStorage();
    await harness.signIn(harness.createClient(), { storage });
    const target = new EventTarget();
    const listen = vi.spyOn(target, 'addEventListener');
    const client = harness.createClient({ storage, environment: { inputTarget: target } });
    await client.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getSnapshot().status).toBe('authenticated');
    expect(client.idle.getSnapshot()).toEqual({ status: 'active', deadline: null });
    expect(listen).not.toHaveBeenCalled();
  });
});

describe('idle sign-out, adversarial', () => {
  test('a clock set back (an hour) does not keep an idle session open for that hour', async () => {
    const { a, b } = await twoTabs();
    await vi.advanceTimersByTimeAsync(10_000);
    vi.setSystemTime(Date.now() - 3_600_000);
    // Nor for a timeout more: the 10 s spent idle before still count.
    await vi.advanceTimersByTimeAsync(29_000);
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    await vi.advanceTimersByTimeAsync(2_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot().status).not.toBe('authenticated');
    });
  });

  test('a clock set back while the warning shows: the warning stays, and the end comes when it would have', async () => {
    const { a, b } = await twoTabs();
    await vi.advanceTimersByTimeAsync(45_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    vi.setSystemTime(Date.now() - 3_600_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    await vi.advanceTimersByTimeAsync(14_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot().status).not.toBe('authenticated');
    });
  });

  test('a clock set back by less than the time spent idle does not put the end off', async () => {
    const { a, b } = await twoTabs();
    await vi.advanceTimersByTimeAsync(30_000);
    vi.setSystemTime(Date.now() - 20_000);
    await vi.advanceTimersByTimeAsync(11_000);
    expect([status(a), status(b)]).toEqual(['warning', 'warning']);
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot().status).not.toBe('authenticated');
    });
  });

  test('after a clock set back, input in one tab still keeps the other one alive', async () => {
    const { a, b, inputs } = await twoTabs();
    await vi.advanceTimersByTimeAsync(10_000);
    input(inputs[1]);
    vi.setSystemTime(Date.now() - 3_600_000);
    for (let second = 0; second < 150; second += 1) {
      await vi.advanceTimersByTimeAsync(1_000);
      input(inputs[1]);
    }
    expect([status(a), status(b)]).toEqual(['active', 'active']);
    expect(a.getSnapshot().status).toBe('authenticated');
  });

  test('a tab that signs out itself (it missed the message) lands on the signed-out page once', async () => {
    let deaf = false;
    const { a, b, pages } = await twoTabs(defaultIdle, { lag: 1_000, secondDeaf: () => deaf });
    await vi.advanceTimersByTimeAsync(59_000);
    deaf = true;
    await vi.advanceTimersByTimeAsync(8_000);
    await vi.waitFor(() => {
      expect(a.getSnapshot().status).not.toBe('authenticated');
      expect(b.getSnapshot().status).not.toBe('authenticated');
    });
    await vi.advanceTimersByTimeAsync(6_000);
    const follower = a.getSnapshot().status === 'signing-out' ? pages[1] : pages[0];
    expect(follower).toEqual(['/signed-out']);
  });

  test('input while the end is under way (pointer moves on waking) ends the session once and lands on the signed-out page once', async () => {
    const { a, b, inputs, pages } = await twoTabs();
    const logoutsBefore = harness.redirects.filter((url) => url.includes('/logout')).length;
    vi.setSystemTime(Date.now() + 120_000);
    // The second tab wakes first and leads (it keeps the idle lock while it leaves); the first
    // gets pointer moves before the second tab's message reaches it.
    input(inputs[1]);
    for (let move = 0; move < 5; move += 1) input(inputs[0]);
    await vi.waitFor(() => {
      expect(a.getSnapshot()).toMatchObject({ status: 'unauthenticated', signOutReason: 'idle' });
      expect(b.getSnapshot().status).toBe('signing-out');
    });
    // The leader lets go of the lock (it left, or `holdIdleLock` passed).
    await vi.advanceTimersByTimeAsync(6_000);
    expect(pages[0]).toEqual(['/signed-out']);
    const logouts = harness.redirects.filter((url) => url.includes('/logout')).length;
    expect(logouts - logoutsBefore).toBe(1);
  });

  test('a page loaded after the end, no tab of the session open meanwhile (closed, discarded), never shows it: no renewal, signed out at the provider (idle)', async () => {
    harness = createHarness();
    const storage = newStorage();
    const { client } = await harness.signIn(
      harness.createClient({ config: { idle: defaultIdle } }),
      {
        config: { idle: defaultIdle },
        storage,
      },
    );
    await vi.waitFor(() => expect(client.idle.getSnapshot().deadline).not.toBeNull());
    client.dispose();
    // Two hours on, past the end and the access token's expiry, the tab is loaded again.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    const refreshes = harness.provider.count('refresh');
    const redirects = harness.redirects.length;
    const next = harness.createClient({ storage, config: { idle: defaultIdle } });
    const statuses = recordStatuses(next);
    await next.start();
    await vi.waitFor(() => expect(next.getSnapshot().status).toBe('signing-out'));
    expect(statuses).not.toContain('authenticated');
    expect(harness.provider.count('refresh')).toBe(refreshes);
    const logouts = () =>
      harness.redirects.slice(redirects).filter((url) => url.includes('/logout'));
    await vi.waitFor(() => expect(logouts()).toHaveLength(1));
  });

  test('a timeout shorter than the 5 s between shares: input in one tab keeps the other signed in', async () => {
    const { a, b, inputs } = await twoTabs({ timeout: 4_000, warning: 1_000 });
    for (let step = 0; step < 40; step += 1) {
      await vi.advanceTimersByTimeAsync(500);
      input(inputs[1]);
    }
    expect(a.getSnapshot().status).toBe('authenticated');
    expect(b.getSnapshot().status).toBe('authenticated');
  });

  test('a full localStorage (quota exceeded) does not keep input from reaching the other tabs', async () => {
    let full = false;
    const quota = (shared: Storage): Storage =>
      new Proxy(shared, {
        get(target, name) {
          if (name === 'setItem') {
            return (key: string, value: string) => {
              if (full)
                throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
              target.setItem(key, value);
            };
          }
          const value = Reflect.get(target, name) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const { a, b, inputs } = await twoTabs(defaultIdle, { shared: quota });
    full = true;
    const errors: unknown[] = [];
    for (let second = 0; second < 120; second += 1) {
      await vi.advanceTimersByTimeAsync(1_000);
      try {
        input(inputs[1]);
      } catch (error) {
        errors.push(error);
      }
    }
    expect(errors).toEqual([]);
    expect(a.getSnapshot().status).toBe('authenticated');
    expect(b.getSnapshot().status).toBe('authenticated');
  });

  test('a tab opened during the warning shows it too, with the same end; "stay" there ends it everywhere', async () => {
    const { a, b } = await twoTabs();
    await vi.advanceTimersByTimeAsync(45_000);
    const c = harness.createClient({ storage: newStorage(), config: { idle: defaultIdle } });
    const starting = c.start();
    for (let step = 0; step < 20 && c.idle.getSnapshot().deadline === null; step += 1) {
      await vi.advanceTimersByTimeAsync(50);
    }
    await starting;
    expect(c.getSnapshot().status).toBe('authenticated');
    expect(c.idle.getSnapshot()).toEqual(a.idle.getSnapshot());
    expect(status(c)).toBe('warning');
    c.idle.stay();
    await vi.waitFor(() =>
      expect([status(a), status(b), status(c)]).toEqual(['active', 'active', 'active']),
    );
  });
});

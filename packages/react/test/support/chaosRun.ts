import { expect, vi } from 'vitest';
import type { AuthClient } from '../../src/core/AuthClient';
import {
  betweenSessions,
  describeTab,
  recordedSession,
  sessionOf,
  settledFailures,
} from './chaosChecks';
import { accessTokenTtl } from './chaosSchedule';
import type { ChaosPlan, ChaosStep } from './chaosSchedule';
import { createLockManager } from './createLockManager';
import type { LockManagerLike } from '../../src/core/tabSync';
import { alice } from './FakeProvider';
import type { FakeUser } from './FakeProvider';
import { copyStorage, createHarness, newStorage } from './harness';
import type { Harness } from './harness';
import { unhandledRejectionsDuring } from './unhandledRejections';
import { watchTokenRequests } from './watchTokenRequests';

const users: Record<'alice' | 'bob', FakeUser> = {
  alice,
  bob: { sub: 'bob', name: 'Bob Stone', email: 'bob@example.com', roles: ['user'] },
};

interface Tab {
  client: AuthClient;
  storage: Storage;
  /** While true, the tab hears nothing from the others. */
  frozen: { now: boolean };
}

const ignore = () => undefined;

/**
 * Runs `plan` (see `chaosSchedule`) on a fake provider and its tabs, then lets every fault heal,
 * renews in each open tab and waits for the tabs to catch up. `failed`: the session protocol's
 * invariants that failed, a line each (none when it held); `trace`: the tabs after each step.
 * Fakes `Date`; call it inside a test.
 */
export async function runChaos(plan: ChaosPlan): Promise<{ failed: string[]; trace: string[] }> {
  const failed: string[] = [];
  const trace: string[] = [];
  vi.useFakeTimers({ toFake: ['Date'] });
  const harness = createHarness({ accessTokenTtl, refreshDelay: 20 });
  try {
    const leaked = await unhandledRejectionsDuring(() => run(plan, harness, failed, trace));
    for (const reason of leaked) failed.push(`unhandled rejection: ${String(reason)}`);
  } finally {
    harness.dispose();
    vi.useRealTimers();
  }
  return { failed, trace };
}

async function run(
  plan: ChaosPlan,
  harness: Harness,
  failed: string[],
  trace: string[],
): Promise<void> {
  const { provider } = harness;
  const watch = watchTokenRequests(provider);
  // Without Web Locks, a memory tab with no tab holding its refresh token waits this (+1 s) for
  // one: 2 s, not 10.
  const config = { storage: plan.storage, timeout: 2000 };
  const lockManagers: ReturnType<typeof createLockManager>[] = [];
  const locks = (): LockManagerLike | undefined => {
    if (plan.locks === 'web-locks') {
      if (lockManagers[0] === undefined) lockManagers.push(createLockManager());
      return lockManagers[0];
    }
    // No locks across tabs: each tab's own, which cannot tell of the others' locks (no `query`).
    const own = createLockManager();
    lockManagers.push(own);
    return { request: (name, callback) => own.request(name, callback) };
  };
  const environment = (frozen: { now: boolean }) => ({
    locks: locks(),
    // A tab that gets no answer from the others is signed out after this (ms), not 5 s.
    tabSessionWait: 500,
    createChannel: harness.deafenableChannel(() => frozen.now),
  });
  const storages: Storage[] = [];
  const storageFor = (restore: number | null = null): Storage => {
    if (plan.storage === 'local') return harness.shared;
    if (restore === null) return newStorage();
    return copyStorage(storages[restore] as Storage);
  };
  const open: Tab[] = [];
  const underWay: Promise<unknown>[] = [];
  /** The sessions signed out, by the tabs that held them. */
  const signedOut = new Set<string>();

  const signIn = async (client: AuthClient, storage: Storage, user: FakeUser): Promise<Tab> => {
    provider.options.providerSession = true;
    const frozen = { now: false };
    const landed = await harness.signIn(client, {
      storage,
      config,
      environment: environment(frozen),
      user,
    });
    history.replaceState(null, '', '/dashboard');
    storages.push(storage);
    return { client: landed.client, storage, frozen };
  };
  // A memory tab holds its refresh token's lock for as long as it holds the token: not a renewal.
  const quiet = () =>
    watch.inFlight === 0 &&
    lockManagers.every((manager) =>
      manager.holding.every((name) => name.startsWith('oidc-kit:refresh:')),
    );
  const jump = async (seconds: number) => {
    // Time passes only while no tab renews (renewals run under the lock): a request in flight that
    // long would have timed out, and one booked before the jump would seem to overlap the next.
    await vi.waitFor(() => expect(quiet()).toBe(true), { timeout: 5000 }).catch(ignore);
    vi.setSystemTime(Date.now() + seconds * 1000);
  };

  const first = storageFor();
  const signing = { now: false };
  open.push(
    await signIn(
      harness.createClient({ storage: first, config, environment: environment(signing) }),
      first,
      alice,
    ),
  );
  for (let tab = 1; tab < plan.tabs; tab += 1) open.push(await openTab(harness, storageFor()));

  async function openTab(harness: Harness, storage: Storage): Promise<Tab> {
    const frozen = { now: false };
    const client = harness.createClient({ storage, config, environment: environment(frozen) });
    storages.push(storage);
    await client.start();
    return { client, storage, frozen };
  }

  const thaw = () => {
    for (const tab of open) tab.frozen.now = false;
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
  };

  /** An operation of a tab: waited for, or left under way beside the next steps. */
  async function start(operation: Promise<unknown> | undefined, wait: boolean): Promise<void> {
    const settled = operation?.catch(ignore) ?? Promise.resolve();
    if (wait) await settled;
    else underWay.push(settled);
  }

  async function perform(step: ChaosStep): Promise<void> {
    const tab = 'tab' in step ? (open[step.tab] as Tab) : undefined;
    switch (step.do) {
      case 'renew':
        return start(tab?.client.renew(), step.wait);
      case 'unauthorized': {
        const client = tab?.client as AuthClient;
        const token = client.getSnapshot().user?.access_token;
        if (step.via === 'fetch') {
          return start(client.fetch(`${provider.apiOrigin}/orders`), step.wait);
        }
        if (token !== undefined) return start(client.renewAfterUnauthorized(token), step.wait);
        return;
      }
      case 'jump':
        return jump(step.seconds);
      case 'lose-answer':
        provider.options.loseNextRefreshResponse = true;
        return;
      case 'unavailable':
        provider.options.refreshAnswer = () => {
          provider.options.refreshAnswer = undefined;
          return new Response(JSON.stringify({ error: 'temporarily_unavailable' }), {
            status: 503,
            headers: { 'Content-Type': 'application/json', 'Retry-After': `${step.retryAfter}` },
          });
        };
        return;
      case 'network-error':
        watch.failNext = true;
        return;
      case 'close': {
        const client = tab?.client as AuthClient;
        if (step.midRenewal) {
          const renewing = client.renew().catch(ignore);
          underWay.push(renewing);
          await Promise.race([renewing, watch.nextRequest()]);
        }
        if (step.how === 'stop') client.stop();
        else client.dispose();
        open.splice(step.tab, 1);
        return;
      }
      case 'open':
        open.push(await openTab(harness, storageFor(step.restore)));
        return;
      case 'sign-out': {
        const client = tab?.client as AuthClient;
        const session = sessionOf(client);
        if (session !== null) signedOut.add(session);
        await client.signOut({ redirect: false });
        return;
      }
      case 'sign-in': {
        const { client, storage } = tab as Tab;
        // The page leaves for the provider; its tab lands on the callback with a new client.
        const kept = plan.storage === 'memory' ? newStorage() : storage;
        const landed = await signIn(client, kept, users[step.user]);
        client.dispose();
        open[step.tab] = landed;
        return;
      }
      case 'revoke':
        provider.revokeAllGrants();
        return;
      case 'end-provider-session':
        provider.options.providerSession = false;
        return;
      case 'freeze':
        (tab as Tab).frozen.now = true;
        return;
      case 'thaw':
        thaw();
        return;
      case 'settle':
        await Promise.allSettled(underWay.splice(0));
        return;
    }
  }

  const check = (when: string) => {
    if (provider.reusedRefreshTokens.length > 0) {
      failed.push(`${when}: refresh tokens sent twice: ${provider.reusedRefreshTokens.length}`);
    }
    for (const overlap of watch.overlaps.splice(0)) failed.push(`${when}: ${overlap}`);
  };

  for (const [index, step] of plan.steps.entries()) {
    try {
      await perform(step);
    } catch (error) {
      failed.push(`step ${index + 1} threw: ${String(error)}`);
    }
    if (process.env.CHAOS_TRACE) console.log(performance.now() | 0, `step ${index + 1}`);
    trace.push(
      `after ${index + 1}: ${open.map(({ client }) => describeTab(client)).join(', ')}; record ${recordedSession(harness.shared)?.slice(0, 6) ?? '-'}; ${watch.sent} renewal requests`,
    );
    check(`after step ${index + 1}`);
    if (failed.length > 0) return;
  }

  await Promise.allSettled(underWay.splice(0));
  // As the steps left them: each tab that hears the others, once caught up (a frozen tab is checked
  // once woken, below). Its grant may have ended unknown to it: the healing renewals find out.
  const hearing = open.filter(({ frozen }) => !frozen.now).map(({ client }) => client);
  await settle(hearing);
  check('at the end of the steps');
  for (const line of settledFailures(hearing, harness.shared, provider, signedOut, false)) {
    failed.push(`at the end of the steps: ${line}`);
  }

  // Every fault heals and every tab wakes; past any hold and every expiry, each tab renews in turn.
  thaw();
  provider.options.refreshAnswer = undefined;
  provider.options.loseNextRefreshResponse = false;
  watch.failNext = false;
  await jump(601);
  for (const { client } of open) {
    await client.renew().catch(ignore);
    await jump(11);
  }
  await Promise.allSettled(underWay.splice(0));
  const all = open.map(({ client }) => client);
  await settle(all);
  check('healed');
  for (const line of settledFailures(all, harness.shared, provider, signedOut, true)) {
    failed.push(`healed: ${line}`);
  }

  /** Waits until `tabs` have caught up with each other; one that cannot is a failure. */
  async function settle(tabs: AuthClient[]): Promise<void> {
    // A tab whose session was replaced shows it until the new one comes (or none does, after the
    // wait for the other tabs' answer): only then is what it shows settled.
    const replacing = () => tabs.filter(betweenSessions);
    await vi.waitFor(() => expect(replacing()).toEqual([]), { timeout: 5000 }).catch(ignore);
    if (replacing().length > 0) failed.push(`${replacing().length} tabs stay between sessions`);
    for (const client of tabs) await harness.caughtUp(client);
  }
}

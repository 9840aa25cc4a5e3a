// Row 3: refresh de-duplication. (a) 50 concurrent API calls with an access token the API has
// expired (each gets a 401); (b) three tabs sharing storage renewing at once. Counted at the fake
// provider's token endpoint: refresh-token requests, and refusals for reuse (a rotated refresh
// token sent twice: the provider revokes the whole grant, and the user is signed out).
import { createElement, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { InMemoryWebStorage } from 'oidc-client-ts';
import type { User } from 'oidc-client-ts';
import { AuthProvider as OidcContextProvider, useAuth } from 'react-oidc-context';
import type { AuthContextProps } from 'react-oidc-context';
import { passTokenFloor } from '../support/clock';
import {
  createUserManager,
  oidcKitTabs,
  sharedUserStore,
  startProvider,
  until,
} from '../support/fake';
import type { Observed } from '../support/fake';
import { job } from '../support/job';
import { calls, runs, tabCount } from '../support/settings';
import { runScenarios } from '../support/stats';
import type { Counts } from '../support/stats';

function apiUrl(observed: Observed): string {
  return `${observed.provider.apiOrigin}/me`;
}

async function oidcKitCalls(): Promise<Counts> {
  const observed = startProvider();
  const tabs = oidcKitTabs(observed.provider);
  try {
    const client = await tabs.signIn();
    passTokenFloor();
    observed.provider.expireAccessTokens();
    const before = observed.refreshes();
    const responses = await Promise.all(
      Array.from({ length: calls }, () => client.fetch(apiUrl(observed))),
    );
    return {
      refreshes: observed.refreshes() - before,
      succeeded: responses.filter((response) => response.ok).length,
      reuseDetected: observed.reuses() > 0,
    };
  } finally {
    tabs.dispose();
  }
}

/**
 * What a react-oidc-context app writes for this (its README has no 401 handling): a fetch that
 * sends `auth.user.access_token` and, on a 401, renews with `auth.signinSilent()` and retries once.
 */
function authFetch(getAuth: () => AuthContextProps) {
  return async (url: string): Promise<Response> => {
    const send = (user: User | null | undefined) =>
      fetch(url, { headers: { Authorization: `Bearer ${user?.access_token ?? ''}` } });
    const response = await send(getAuth().user);
    if (response.status !== 401) return response;
    const renewed = await getAuth().signinSilent();
    return renewed ? send(renewed) : response;
  };
}

/** Hands the hook's value out, as an app's component would use it. */
function Capture({ onAuth }: { onAuth: (auth: AuthContextProps) => void }) {
  const auth = useAuth();
  useEffect(() => onAuth(auth), [auth, onAuth]);
  return null;
}

async function oidcContextCalls(): Promise<Counts> {
  const observed = startProvider();
  const { userManager, authorizeUrl } = createUserManager(observed.provider);
  let auth: AuthContextProps | undefined;
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  try {
    history.replaceState(null, '', await authorizeUrl());
    const capture = (value: AuthContextProps) => {
      auth = value;
    };
    root.render(
      createElement(
        OidcContextProvider,
        { userManager, onSigninCallback: () => history.replaceState({}, '', '/') },
        createElement(Capture, { onAuth: capture }),
      ),
    );
    await until(() => auth?.user != null, 'react-oidc-context to sign in');
    observed.provider.expireAccessTokens();
    const before = observed.refreshes();
    const call = authFetch(() => auth as AuthContextProps);
    const responses = await Promise.all(
      Array.from({ length: calls }, () => call(apiUrl(observed))),
    );
    return {
      refreshes: observed.refreshes() - before,
      succeeded: responses.filter((response) => response.ok).length,
      reuseDetected: observed.reuses() > 0,
    };
  } finally {
    root.unmount();
    container.remove();
    userManager.stopSilentRenew();
  }
}

async function oidcKitTabsRenew(): Promise<Counts> {
  const observed = startProvider();
  const tabs = oidcKitTabs(observed.provider);
  try {
    const first = await tabs.signIn();
    const others = Array.from({ length: tabCount - 1 }, () => tabs.tab());
    // The other tabs open: they get the session from the first over the channel.
    await Promise.all(others.map((tab) => tab.start()));
    const all = [first, ...others];
    if (all.some((tab) => tab.getSnapshot().status !== 'authenticated')) {
      throw new Error('a tab did not get the session');
    }
    passTokenFloor();
    const before = observed.refreshes();
    await Promise.all(all.map((tab) => tab.renew().catch(() => null)));
    const tokens = all.map((tab) => tab.getSnapshot().user?.access_token);
    const working = await Promise.all(
      tokens.map((token) =>
        fetch(apiUrl(observed), { headers: { Authorization: `Bearer ${token ?? ''}` } }),
      ),
    );
    return {
      refreshes: observed.refreshes() - before,
      tabsSignedIn: working.filter((response) => response.ok).length,
      reuseDetected: observed.reuses() > 0,
    };
  } finally {
    tabs.dispose();
  }
}

async function oidcContextTabsRenew(): Promise<Counts> {
  const observed = startProvider();
  // Three tabs' UserManagers on one localStorage (its README's setup to share a session).
  const storage = new InMemoryWebStorage() as unknown as Storage;
  const managers = Array.from(
    { length: tabCount },
    () => createUserManager(observed.provider, { userStore: sharedUserStore(storage) }).userManager,
  );
  const first = createUserManager(observed.provider, { userStore: sharedUserStore(storage) });
  try {
    await first.userManager.signinCallback(await first.authorizeUrl());
    for (const manager of managers) {
      if ((await manager.getUser()) === null) throw new Error('a tab did not get the session');
    }
    const before = observed.refreshes();
    // Each tab's automatic renewal fires at the same moment (the same expiry in the shared user).
    const users = await Promise.all(
      managers.map((manager) => manager.signinSilent().catch(() => null)),
    );
    const working = await Promise.all(
      users.map((user) =>
        fetch(apiUrl(observed), {
          headers: { Authorization: `Bearer ${user?.access_token ?? ''}` },
        }),
      ),
    );
    return {
      refreshes: observed.refreshes() - before,
      tabsSignedIn: working.filter((response) => response.ok).length,
      reuseDetected: observed.reuses() > 0,
    };
  } finally {
    for (const manager of [...managers, first.userManager]) manager.stopSilentRenew();
  }
}

export interface RefreshResults {
  calls: number;
  tabs: number;
  iterations: number;
  scenarios: Awaited<ReturnType<typeof runScenarios>>;
}

void job('refresh', async (): Promise<RefreshResults> => {
  const scenarios = await runScenarios(
    {
      'oidc-kit 50 calls': oidcKitCalls,
      'react-oidc-context 50 calls': oidcContextCalls,
      'oidc-kit 3 tabs': oidcKitTabsRenew,
      'react-oidc-context 3 tabs': oidcContextTabsRenew,
    },
    runs.refresh,
  );
  return { calls, tabs: tabCount, iterations: runs.refresh, scenarios };
});

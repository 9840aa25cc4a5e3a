// Sign-in against the in-memory provider of @oidc-kit/react's tests, for both libraries, in jsdom.
import { AuthClient } from '@oidc-kit/react';
import type { AuthClientEnvironment, ChannelLike } from '@oidc-kit/react';
import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { INavigator, UserManagerSettings } from 'oidc-client-ts';
import { FakeProvider } from '../../../packages/react/test/support/FakeProvider';
import { tokenDelay } from './settings';

export { FakeProvider };

export const appOrigin = 'http://localhost:3000';

/** The provider's answers to refresh requests, as the token endpoint gave them. */
export interface Observed {
  provider: FakeProvider;
  /** Refresh-token grant requests. */
  refreshes(): number;
  /** Refresh requests refused because the token had been used before (the grant is revoked). */
  reuses(): number;
}

/**
 * A new fake provider behind the global `fetch` (both libraries and oidc-client-ts use it),
 * recording the token endpoint's refusals.
 */
export function startProvider(): Observed {
  const provider = new FakeProvider({ tokenDelay });
  let reuses = 0;
  globalThis.fetch = async (input, init) => {
    const response = await provider.fetch(input, init);
    if (response.status === 400) {
      const body = (await response.clone().json()) as { error_description?: string };
      if (body.error_description === 'refresh token reused') reuses += 1;
    }
    return response;
  };
  sessionStorage.clear();
  localStorage.clear();
  history.replaceState(null, '', '/');
  return { provider, refreshes: () => provider.count('refresh'), reuses: () => reuses };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let channels = 0;

/** Tabs of one app for @oidc-kit/react: each its own token storage, sharing localStorage and a channel. */
export function oidcKitTabs(provider: FakeProvider, options: { dpop?: boolean } = {}) {
  const redirects: string[] = [];
  const shared = new InMemoryWebStorage() as unknown as Storage;
  const channelName = `bench-${process.pid}-${(channels += 1)}`;
  const clients: AuthClient[] = [];

  function tab(environment: AuthClientEnvironment = {}): AuthClient {
    const client = new AuthClient(
      {
        authority: provider.issuer,
        client_id: 'app',
        redirect_uri: `${appOrigin}/callback`,
        apiOrigins: [provider.apiOrigin],
        dpop: options.dpop ?? false,
      },
      {
        storage: new InMemoryWebStorage() as unknown as Storage,
        sharedStorage: shared,
        // The in-page lock: clients in one page take turns as tabs do with the Web Locks API.
        locks: null,
        createChannel: (name) =>
          new BroadcastChannel(`${channelName}:${name}`) as unknown as ChannelLike,
        redirect: (url) => redirects.push(url),
        navigate: () => undefined,
        tabSessionWait: 50,
        ...environment,
      },
    );
    clients.push(client);
    return client;
  }

  /** Signs in as a user would: redirect, the provider's answer, and a tab landing on the callback. */
  async function signIn(): Promise<AuthClient> {
    const starter = tab();
    void starter.signIn({ returnTo: '/' });
    await until(() => redirects.length > 0, 'the sign-in redirect');
    history.replaceState(null, '', provider.authorize(redirects[0] as string));
    const landed = tab();
    await landed.start();
    starter.dispose();
    if (landed.getSnapshot().status !== 'authenticated') {
      throw new Error(`oidc-kit sign-in failed: ${landed.getSnapshot().error?.message}`, {
        cause: landed.getSnapshot().error,
      });
    }
    return landed;
  }

  function dispose(): void {
    for (const client of clients) client.dispose();
  }

  return { tab, signIn, dispose };
}

/** A redirect navigator that hands the authorize URL over instead of leaving the page. */
function capturingNavigator(redirects: string[]): INavigator {
  return {
    prepare: async () => ({
      navigate: async ({ url }) => {
        redirects.push(url);
        return new Promise<never>(() => undefined);
      },
      close: () => undefined,
    }),
    callback: async () => undefined,
  };
}

/**
 * A UserManager as react-oidc-context builds one from its props (defaults untouched: session
 * storage for the user, automatic silent renew on), on the fake provider.
 */
export function createUserManager(
  provider: FakeProvider,
  settings: Partial<UserManagerSettings> = {},
): { userManager: UserManager; authorizeUrl: () => Promise<string> } {
  const redirects: string[] = [];
  const userManager = new UserManager(
    {
      authority: provider.issuer,
      client_id: 'app',
      redirect_uri: `${appOrigin}/callback`,
      // As the typical app sets it (oidc-client-ts asks for `openid` alone by default).
      scope: 'openid profile email',
      ...settings,
    },
    capturingNavigator(redirects),
  );
  async function authorizeUrl(): Promise<string> {
    void userManager.signinRedirect();
    await until(() => redirects.length > 0, 'the sign-in redirect');
    return provider.authorize(redirects[0] as string);
  }
  return { userManager, authorizeUrl };
}

/** localStorage as its README's "Automatic sign-in" sets it up, shared by every tab. */
export function sharedUserStore(storage: Storage): WebStorageStateStore {
  return new WebStorageStateStore({ store: storage });
}

export { until };

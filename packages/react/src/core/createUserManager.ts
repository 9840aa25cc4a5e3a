import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { INavigator, NavigateResponse, UserManagerSettings } from 'oidc-client-ts';
import type { AuthClientEnvironment } from './clientOptions';
import { browserStorage } from './browserStorage';
import { CheckedUserStore } from './CheckedUserStore';
import type { UserCheck } from './CheckedUserStore';
import type { ResolvedAuthConfig } from './configTypes';

/** An oidc-client-ts navigator that goes to a URL with `navigate` (see `AuthClientEnvironment`). */
function navigatorFor(
  navigate: (params: { url: string }) => Promise<NavigateResponse>,
): INavigator {
  return {
    prepare: async () => ({ navigate, close: () => undefined }),
    callback: async () => undefined,
  };
}

/**
 * The `UserManager` the engine drives, with oidc-kit's checked user store: built from the config,
 * or a ready-made one whose store is wrapped (and whose own silent renew is stopped). `session`
 * names the session a stored user belongs to.
 */
export function createUserManager(
  config: ResolvedAuthConfig,
  environment: AuthClientEnvironment,
  given: UserManager | undefined,
  check: UserCheck,
  session: () => string | null,
): { manager: UserManager; store: CheckedUserStore } {
  if (given !== undefined) {
    const settings = given.settings as unknown as { userStore: CheckedUserStore };
    // `storage: 'memory'` holds here too: the manager's own store is web storage by default, and
    // would keep the refresh token there (session protocol, rule 2).
    const inner =
      config.storage === 'memory'
        ? new WebStorageStateStore({ store: new InMemoryWebStorage() })
        : settings.userStore;
    const store = new CheckedUserStore(inner, check, session);
    settings.userStore = store;
    given.stopSilentRenew();
    return { manager: given, store };
  }
  const storage =
    environment.storage ??
    (config.storage === 'memory'
      ? new InMemoryWebStorage()
      : browserStorage(config.storage === 'local' ? 'localStorage' : 'sessionStorage')) ??
    new InMemoryWebStorage();
  const store = new CheckedUserStore(new WebStorageStateStore({ store: storage }), check, session);
  const seconds = config.timeout / 1000;
  const settings: UserManagerSettings = {
    ...config.oidc,
    // The silent iframe lands on the callback route, which hands the response to this page.
    silent_redirect_uri: config.oidc.silent_redirect_uri ?? config.oidc.redirect_uri,
    userStore: store,
    // The sign-in state (PKCE verifier, nonce) must be readable by a popup window, which does
    // not share this tab's sessionStorage; entries are removed when used or stale.
    stateStore: new WebStorageStateStore({
      store: browserStorage('localStorage') ?? browserStorage('sessionStorage') ?? storage,
    }),
    response_mode: 'query',
    automaticSilentRenew: false,
    monitorSession: false,
    requestTimeoutInSeconds: seconds,
    silentRequestTimeoutInSeconds: seconds,
  };
  const { redirect, silentFrame } = environment;
  const redirectNavigator =
    redirect &&
    navigatorFor(async ({ url }) => {
      redirect(url);
      return new Promise<never>(() => undefined);
    });
  const frameNavigator =
    silentFrame && navigatorFor(async ({ url }) => ({ url: await silentFrame(url) }));
  return {
    manager: new UserManager(settings, redirectNavigator, undefined, frameNavigator),
    store,
  };
}

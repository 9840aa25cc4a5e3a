import type { User, UserManager } from 'oidc-client-ts';
import type { AuthSnapshot } from './authState';
import { isCallback, isSignOutReturn } from './arrival';
import type { AuthFetch } from './authFetch';
import { validateConfig } from './config';
import { isAuthError } from './errors';
import type { AuthConfig, AuthOptions, ResolvedAuthConfig } from './config';
import { loadLazyParts, SessionCore } from './SessionCore';
import type { ChannelLike, LockManagerLike } from './tabSync';

/** Options for {@link AuthClient.signIn}. */
export interface SignInOptions {
  /** Where to land after sign-in: a same-origin path. Default: the current location. */
  returnTo?: string;
  /** Sign in in a popup window instead of redirecting this page. */
  popup?: boolean;
  /** e.g. `login` to force the login screen, `none` for a silent check. */
  prompt?: string;
  login_hint?: string;
  ui_locales?: string;
  /** Further authorize parameters your provider documents, e.g. `{ kc_idp_hint: 'github' }`. */
  extraQueryParams?: Record<string, string | number | boolean>;
}

/** Options for {@link AuthClient.signOut}. */
export interface SignOutOptions {
  /** Revoke the refresh and access tokens at the provider first. Default false. */
  revokeTokens?: boolean;
  /** Also end the session at the provider (RP-initiated logout). Default true. */
  redirect?: boolean;
  /** Why, for the signed-out page (`snapshot.signOutReason`). Default `user`. */
  reason?: 'user' | 'idle';
  /** The language of the provider's logout pages, e.g. `fr`. */
  ui_locales?: string;
  /** Which account to sign out, where the provider supports it. */
  logout_hint?: string;
}

/** What can be swapped out of the browser, for tests and unusual environments. */
export interface AuthClientEnvironment {
  /** Storage for the user's tokens, instead of the one `storage` names. */
  storage?: Storage;
  /** Storage shared by the app's tabs for renewal bookkeeping (never tokens). Default localStorage. */
  sharedStorage?: Storage | null;
  /** The Web Locks API. Default `navigator.locks`; null uses an in-page lock. */
  locks?: LockManagerLike | null;
  /** Opens the tab-sync channel. Default `new BroadcastChannel(name)`; return null for none. */
  createChannel?: (name: string) => ChannelLike | null;
  /** Moves the app to a path after sign-in. Default: `history.replaceState` plus a `popstate`. */
  navigate?: (path: string) => void;
  /** The fetch used by the authenticated fetch. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Milliseconds a new tab waits for another tab's session. Default 150. */
  tabSessionWait?: number;
  /** Sends the browser to the provider. Default: `location.assign`. */
  redirect?: (url: string) => void;
  /**
   * Loads a silent (`prompt=none`) authorization URL in a hidden frame and resolves with the URL
   * the frame lands on. Default: an iframe on `silent_redirect_uri`.
   */
  silentFrame?: (url: string) => Promise<string>;
}

/** An `AuthConfig`, or oidc-kit's options around a `UserManager` you built. */
export type AuthClientConfig = AuthConfig | (AuthOptions & { userManager: UserManager });

const callbacksInFlight = new Map<string, { owner: AuthClient; run: Promise<void> }>();

/**
 * The auth engine: owns one oidc-client-ts `UserManager` and the session state. Read it with
 * `getSnapshot()` / `subscribe()`; act with `signIn`, `signOut`, `renew`, `getAccessToken`,
 * `fetch`. Nothing touches the browser until `start()`, so it can be created during server
 * rendering.
 *
 * @example
 * const client = new AuthClient({ authority, client_id, redirect_uri });
 * client.subscribe(() => console.log(client.getSnapshot().status));
 * await client.start();
 */
export class AuthClient {
  /** The validated configuration, with defaults. */
  readonly config: ResolvedAuthConfig;
  /** Fetch with the access token for the configured API origins; one renewal on a 401. */
  readonly fetch: AuthFetch;

  private readonly core: SessionCore;
  private started: Promise<void> | undefined;

  constructor(config: AuthClientConfig, environment: AuthClientEnvironment = {}) {
    let given: UserManager | undefined;
    if ('userManager' in config && config.userManager !== undefined) {
      const { userManager, ...options } = config;
      const settings = userManager.settings;
      this.config = validateConfig({
        authority: settings.authority,
        client_id: settings.client_id,
        redirect_uri: settings.redirect_uri,
        post_logout_redirect_uri: settings.post_logout_redirect_uri,
        scope: settings.scope,
        response_type: settings.response_type,
        client_secret: settings.client_secret,
        disablePKCE: settings.disablePKCE,
        ...options,
      });
      given = userManager;
    } else {
      this.config = validateConfig(config);
    }
    this.core = new SessionCore(this.config, environment, given);
    this.fetch = (input, init) => this.core.withParts((parts) => parts.fetch(input, init));
  }

  /** The current state; the same object until something changes. */
  getSnapshot = (): AuthSnapshot => this.core.snapshot;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.core.listeners.add(listener);
    return () => {
      this.core.listeners.delete(listener);
    };
  };

  /** The `UserManager` this client drives (created on first use). */
  get userManager(): UserManager {
    return this.core.userManager;
  }

  /**
   * Restores the session: processes a sign-in callback or a sign-out return in the URL, else
   * reads the stored user, else asks the other open tabs. Safe to call many times; later calls
   * share the first run.
   */
  start(): Promise<void> {
    this.started ??= this.run();
    return this.started;
  }

  /** The user's roles, read with the configured `roles` reader. */
  readRoles(user: User): string[] {
    try {
      return this.config.roles(user);
    } catch {
      return [];
    }
  }

  /**
   * Starts sign-in: redirects this page (default) or opens a popup. While one sign-in is under
   * way, another call joins it instead of starting a second one.
   */
  signIn(options: SignInOptions = {}): Promise<void> {
    return this.core
      .withParts((parts) => parts.signIn.signIn(options))
      .catch((error: unknown) => this.unloaded(error));
  }

  /**
   * Signs out: clears the local session (in every tab) first, optionally revokes the tokens, then
   * ends the session at the provider (RP-initiated logout with `id_token_hint`, `client_id`,
   * `post_logout_redirect_uri` and `state`) and returns to `post_logout_redirect_uri`.
   */
  signOut(options: SignOutOptions = {}): Promise<void> {
    return this.core
      .withParts((parts) => parts.signOut.signOut(options))
      .catch((error: unknown) => this.unloaded(error));
  }

  /** Renews the tokens now (refresh token, else silent iframe); one renewal at a time, across tabs. */
  renew(): Promise<User | null> {
    return this.core.renewal.renew();
  }

  /** A valid access token, renewed first when it expires within 5 seconds; null when signed out. */
  getAccessToken(): Promise<string | null> {
    return this.core.renewal.getAccessToken();
  }

  /** @internal Used by the authenticated fetch after a 401. */
  renewAfterUnauthorized(rejected: string): Promise<string | null> {
    return this.core.renewal.renewAfterUnauthorized(rejected);
  }

  /**
   * Processes the sign-in callback in `url` (default: the current address) once per URL, however
   * often it is called: later calls get the first call's promise.
   */
  handleCallback(url: string = globalThis.location.href): Promise<void> {
    const key = `${this.config.oidc.client_id}\n${url}`;
    const inFlight = callbacksInFlight.get(key);
    if (inFlight === undefined) {
      // Once settled, the address no longer holds the callback, so nothing asks again for it.
      const run = this.core
        .withParts((parts) => parts.callback.processCallback(url))
        .catch((error: unknown) => this.unloaded(error))
        .finally(() => callbacksInFlight.delete(key));
      callbacksInFlight.set(key, { owner: this, run });
      return run;
    }
    // Another client (a second provider) processes this callback: follow its result.
    return inFlight.owner === this
      ? inFlight.run
      : inFlight.run.then(() => this.core.tabSession.restore());
  }

  /** Forgets the last error: `error` goes to `unauthenticated`, other states keep their status. */
  dismissError(): void {
    const { status, user, signOutReason } = this.core.snapshot;
    this.core.set(status === 'error' ? 'unauthenticated' : status, user, null, signOutReason);
  }

  /** Stops timers, listeners and the tab channel. The client cannot be used afterwards. */
  dispose(): void {
    this.core.dispose();
  }

  /**
   * The flows settle every failure in the state; what reaches here is a chunk of the engine that
   * could not load (`loadLazyParts`). The state says so, as for any failure; nothing else changed.
   */
  private unloaded(error: unknown): void {
    if (!isAuthError(error)) throw error;
    const { status, user, signOutReason } = this.core.snapshot;
    this.core.set(status === 'loading' ? 'error' : status, user, error, signOutReason);
  }

  private async run(): Promise<void> {
    this.core.tabSession.connect();
    const url = globalThis.location.href;
    if (isCallback(this.core, url)) return this.handleCallback(url);
    if (isSignOutReturn(this.core, url)) {
      return this.core
        .withParts((parts) => parts.signOut.completeSignOut(url))
        .catch((error: unknown) => this.unloaded(error));
    }
    await this.core.tabSession.restore();
    // What the first render did not need comes next: sign-in (a popup must open soon after the
    // click), renewal, the ID-token checks. A failed load is retried when a part is used.
    loadLazyParts().catch(() => undefined);
  }
}

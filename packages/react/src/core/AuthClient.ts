import {
  InMemoryWebStorage,
  OidcClient,
  User,
  UserManager,
  WebStorageStateStore,
} from 'oidc-client-ts';
import type { SignoutRedirectArgs, UserManagerSettings } from 'oidc-client-ts';
import { canTransition, createAuthSnapshot, initialAuthSnapshot } from './authState';
import type { AuthSnapshot, AuthStatus, SignOutReason } from './authState';
import { createAuthFetch } from './authFetch';
import type { AuthFetch } from './authFetch';
import { CheckedUserStore } from './CheckedUserStore';
import type { StoredUser } from './CheckedUserStore';
import { validateConfig } from './config';
import type { AuthConfig, AuthOptions, ResolvedAuthConfig } from './config';
import { AuthError } from './errors';
import { checkIdToken, idTokenInvalid } from './idToken';
import { handOverUrl } from './handOver';
import { RefreshGuard, minRequestInterval } from './refreshGuard';
import { safeReturnTo } from './returnTo';
import { SessionRecords, newSessionId, tokenId } from './sessionRecord';
import type { SessionRecord } from './sessionRecord';
import { receiveUser, shareSession } from './sharedSession';
import type { SharedSession } from './sharedSession';
import { TabSync, withLock } from './tabSync';
import type { ChannelLike, LockManagerLike, TabMessage } from './tabSync';
import { sessionOverErrors, toAuthError } from './toAuthError';
import type { AuthOperation } from './toAuthError';
import { verifyIdTokenSignature } from './verifyIdTokenSignature';
import { WallClockTimer } from './wallClockTimer';

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

type Listener = () => void;

const authParams = [
  'code',
  'state',
  'session_state',
  'iss',
  'error',
  'error_description',
  'error_uri',
];
const callbacksInFlight = new Map<string, { owner: AuthClient; run: Promise<void> }>();
const maxRenewRetries = 3;

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function defaultNavigate(path: string): void {
  history.replaceState(history.state, '', path);
  // Routers that listen to the history (React Router among them) pick the new location up.
  dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
}

function browserStorage(kind: 'sessionStorage' | 'localStorage'): Storage | null {
  try {
    return (globalThis as unknown as Record<string, Storage | undefined>)[kind] ?? null;
  } catch {
    return null;
  }
}

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

  private snapshot: AuthSnapshot = initialAuthSnapshot;
  private readonly listeners = new Set<Listener>();
  private readonly environment: AuthClientEnvironment;
  private readonly givenUserManager: UserManager | undefined;
  private manager: UserManager | undefined;
  private store: CheckedUserStore | undefined;
  private tabs: TabSync | undefined;
  private sessionRecords: SessionRecords | undefined;
  private started: Promise<void> | undefined;
  private renewing: Promise<User | null> | undefined;
  private signingIn: Promise<void> | undefined;
  private readonly renewTimer = new WallClockTimer();
  private renewRetries = 0;
  /** Bumped whenever the session ends, so work begun for the old session cannot revive it. */
  private epoch = 0;
  /** The id of the session this tab holds (see the session record), or null. */
  private session: string | null = null;
  /** The id a sign-in under way will give its session; its user is stored under it. */
  private incoming: string | null = null;
  private signingOut: Promise<void> | undefined;
  /** True while a sign-in (callback or popup) may store another user than the stored one. */
  private freshSignIn = false;
  private redirectWatch: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly teardown: (() => void)[] = [];

  constructor(config: AuthClientConfig, environment: AuthClientEnvironment = {}) {
    this.environment = environment;
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
      this.givenUserManager = userManager;
    } else {
      this.config = validateConfig(config);
    }
    this.fetch = createAuthFetch(this, this.config.apiOrigins, environment.fetch);
  }

  /** The current state; the same object until something changes. */
  getSnapshot = (): AuthSnapshot => this.snapshot;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The `UserManager` this client drives (created on first use). */
  get userManager(): UserManager {
    if (this.manager === undefined) this.manager = this.createUserManager();
    return this.manager;
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
    this.signingIn ??= this.runSignIn(options).finally(() => {
      this.signingIn = undefined;
    });
    return this.signingIn;
  }

  private async runSignIn(options: SignInOptions): Promise<void> {
    const returnTo = safeReturnTo(options.returnTo ?? this.currentPath(), this.origin());
    const prior = this.snapshot.status === 'authenticated' ? this.snapshot.user : null;
    const epoch = this.epoch;
    this.stopRenewing();
    this.set('signing-in', null, null);
    const args = {
      state: { returnTo },
      nonce: randomNonce(),
      prompt: options.prompt,
      login_hint: options.login_hint,
      ui_locales: options.ui_locales,
      extraQueryParams: options.extraQueryParams,
    };
    try {
      await this.assertIssuer();
      if (options.popup === true) {
        // Without this, a popup the user closes leaves sign-in waiting forever.
        const user = await this.exchangeFresh(() =>
          this.userManager.signinPopup({ ...args, popupAbortOnClose: true }),
        );
        await this.beginSession(user);
      } else {
        this.watchRedirect();
        await this.userManager.signinRedirect(args);
      }
    } catch (cause) {
      const error = toAuthError(cause, 'sign-in');
      if (prior !== null && this.epoch === epoch) {
        // A second sign-in (step-up, another account) failed: the first session is still good.
        this.set('authenticated', prior, error);
        this.scheduleRenewal(prior);
        return;
      }
      await this.clearUser();
      this.set(error.code === 'popup_closed' ? 'unauthenticated' : 'error', null, error);
    }
  }

  /**
   * A redirect that never happens (a `beforeunload` prompt answered "stay", a blocked navigation)
   * must not leave the page signing in forever.
   */
  private watchRedirect(): void {
    clearTimeout(this.redirectWatch);
    this.redirectWatch = setTimeout(() => {
      const visible =
        (globalThis as { document?: Document }).document?.visibilityState !== 'hidden';
      if (this.snapshot.status !== 'signing-in' || !visible || this.disposed) return;
      this.signingIn = undefined;
      void this.restore();
    }, 15_000);
  }

  /**
   * Signs out: clears the local session (in every tab) first, optionally revokes the tokens, then
   * ends the session at the provider (RP-initiated logout with `id_token_hint`, `client_id`,
   * `post_logout_redirect_uri` and `state`) and returns to `post_logout_redirect_uri`.
   */
  signOut(options: SignOutOptions = {}): Promise<void> {
    this.signingOut ??= this.runSignOut(options).finally(() => {
      this.signingOut = undefined;
    });
    return this.signingOut;
  }

  private async runSignOut(options: SignOutOptions): Promise<void> {
    const user = this.snapshot.user ?? (await this.readStored())?.user ?? null;
    const reason = options.reason ?? 'user';
    const ended = this.session;
    this.epoch += 1;
    this.stopRenewing();
    this.set('signing-out', null, null);
    this.session = null;
    await this.clearUser();
    this.records().remove(ended);
    if (ended !== null) {
      this.tabs?.post({ type: 'signed-out', session: ended, reason: 'signed_out_elsewhere' });
    }
    // A renewal another tab has under way may write the record back as it ends: remove it again
    // once that renewal has let go of the lock.
    await this.withRenewLock(async () => this.records().remove(ended));
    if (options.revokeTokens === true && user !== null) await this.revoke(user);

    const endSession = await this.userManager.metadataService
      .getEndSessionEndpoint()
      .catch(() => undefined);
    const returnTo = this.config.oidc.post_logout_redirect_uri;
    if (options.redirect === false || endSession === undefined) {
      this.set('unauthenticated', null, null, reason);
      return;
    }
    const extraQueryParams: Record<string, string> = {};
    if (options.ui_locales !== undefined) extraQueryParams.ui_locales = options.ui_locales;
    if (options.logout_hint !== undefined) extraQueryParams.logout_hint = options.logout_hint;
    const args: SignoutRedirectArgs & { client_id: string } = {
      id_token_hint: user?.id_token,
      client_id: this.config.oidc.client_id,
      post_logout_redirect_uri: returnTo,
      // A state only travels with a return address; the provider must send it back unchanged.
      state: {},
      // Replaces the configured sign-in extras (`resource`, `acr_values`…): not logout parameters.
      extraQueryParams,
    };
    try {
      if (returnTo !== undefined) this.signOutMarks()?.setItem(this.signOutMarkKey(), reason);
      await this.userManager.signoutRedirect(args);
    } catch (cause) {
      this.signOutMarks()?.removeItem(this.signOutMarkKey());
      this.set('unauthenticated', null, toAuthError(cause, 'sign-out'), reason);
    }
  }

  /** Renews the tokens now (refresh token, else silent iframe); one renewal at a time, across tabs. */
  renew(): Promise<User | null> {
    this.renewing ??= this.runRenew().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** A valid access token, renewed first when it expires within 5 seconds; null when signed out. */
  async getAccessToken(): Promise<string | null> {
    const user = this.snapshot.user;
    if (user === null) return null;
    if (user.expires_in === undefined || user.expires_in > 5) return user.access_token;
    const renewed = await this.renew().catch(() => null);
    return renewed?.access_token ?? null;
  }

  /** @internal Used by the authenticated fetch after a 401. */
  async renewAfterUnauthorized(rejected: string): Promise<string | null> {
    const current = this.snapshot.user?.access_token ?? null;
    if (current !== null && current !== rejected) return current;
    const renewed = await this.renew();
    return renewed?.access_token ?? null;
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
      const run = this.processCallback(url).finally(() => callbacksInFlight.delete(key));
      callbacksInFlight.set(key, { owner: this, run });
      return run;
    }
    // Another client (a second provider) processes this callback: follow its result.
    return inFlight.owner === this ? inFlight.run : inFlight.run.then(() => this.restore());
  }

  /** Forgets the last error: `error` goes to `unauthenticated`, other states keep their status. */
  dismissError(): void {
    const status = this.snapshot.status === 'error' ? 'unauthenticated' : this.snapshot.status;
    this.set(status, this.snapshot.user, null, this.snapshot.signOutReason);
  }

  /** Stops timers, listeners and the tab channel. The client cannot be used afterwards. */
  dispose(): void {
    this.disposed = true;
    this.stopRenewing();
    clearTimeout(this.redirectWatch);
    for (const undo of this.teardown.splice(0)) undo();
    this.tabs?.close();
    this.listeners.clear();
  }

  private async run(): Promise<void> {
    this.connect();
    const url = globalThis.location.href;
    if (this.isCallback(url)) return this.handleCallback(url);
    if (this.isSignOutReturn(url)) return this.completeSignOut(url);
    await this.restore();
  }

  private connect(): void {
    const { authority, client_id } = this.config.oidc;
    this.tabs = new TabSync(
      `oidc-kit:${authority}:${client_id}`,
      (message) => void this.onTabMessage(message),
      this.environment.createChannel,
    );
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      // A page restored from the back-forward cache must not stay mid-redirect, nor show a
      // session that ended while it was away.
      if (this.snapshot.status === 'signing-out') this.set('unauthenticated', null, null);
      if (this.snapshot.status === 'signing-in') {
        this.signingIn = undefined;
        void this.restore();
      }
      this.recheck();
    };
    const onVisible = () => {
      if ((globalThis as { document?: Document }).document?.visibilityState === 'hidden') return;
      this.recheck();
      this.renewTimer.check();
    };
    globalThis.addEventListener('pageshow', onPageShow);
    globalThis.addEventListener('visibilitychange', onVisible);
    const unwatch = this.records().watch(() => this.recheck());
    this.teardown.push(
      () => globalThis.removeEventListener('pageshow', onPageShow),
      () => globalThis.removeEventListener('visibilitychange', onVisible),
      unwatch,
    );
  }

  /**
   * A tab that was away (frozen, in the back-forward cache, its messages missed) checks the shared
   * record: a session that ended meanwhile is cleared before anything of it shows again.
   */
  private recheck(): void {
    if (this.snapshot.status !== 'authenticated' || this.disposed) return;
    const record = this.records().read();
    if (record !== null && record.session === this.session) return;
    this.epoch += 1;
    this.stopRenewing();
    this.session = null;
    if (record === null) {
      this.set('unauthenticated', null, signedOutElsewhere('signed_out_elsewhere'), 'elsewhere');
      void this.clearUser();
      return;
    }
    // Replaced by a newer session (signed in anew in another tab): take that one. Until it arrives
    // the tab stays as it is: passing through signed out would make a guard redirect.
    void this.clearUser().then(() => this.restore());
  }

  private async restore(): Promise<void> {
    const epoch = this.epoch;
    const record = this.records().read();
    let stored: StoredUser | null = null;
    try {
      stored = await this.readStored();
    } catch {
      await this.clearUser();
    }
    if (this.epoch !== epoch || this.disposed) return;
    let user: User | null = null;
    if (stored !== null && this.isCurrent(stored, record)) {
      user = stored.user;
      this.session = stored.session;
    } else {
      // A session that ended while this tab was away (signed out, replaced) is not shown again.
      if (stored !== null) await this.clearUser();
      // Only a session the record says exists is worth waiting for (rule 8).
      if (this.records().read() !== null && this.tabs !== undefined) {
        const shared = await this.tabs.request(
          'session-request',
          this.environment.tabSessionWait ?? 150,
        );
        if (this.epoch !== epoch || this.disposed) return;
        // The session arrived meanwhile (a `signed-in` message): nothing left to do.
        if (this.session !== null && this.snapshot.status === 'authenticated') return;
        if (shared !== null) user = await this.adopt(shared);
      }
    }
    if (this.epoch !== epoch || this.disposed) return;
    if (user === null) {
      this.set('unauthenticated', null, null);
      // Sign-in is likely next: fetch discovery now, so the click that opens a popup does not
      // wait on the network (popup blockers only allow windows opened soon after a click).
      void this.userManager.metadataService.getMetadata().catch(() => undefined);
    } else if (user.expired === true) {
      this.set('authenticated', user, null);
      await this.renew().catch(() => undefined);
    } else {
      this.signedIn(user);
    }
  }

  /** Whether `stored` belongs to the session the shared record names. */
  private isCurrent(stored: StoredUser, record: SessionRecord | null): boolean {
    if (stored.session === null) return false;
    if (record !== null) return record.session === stored.session;
    if (this.records().shared) return false;
    // No shared storage: the record lived in a page that is gone; this tab's store is all there is.
    void this.bookSession(stored.session, stored.user);
    return true;
  }

  private async processCallback(url: string): Promise<void> {
    const params = new URL(url).searchParams;
    const operation: AuthOperation = params.has('error') ? 'sign-in' : 'callback';
    // The address bar is clean before the code is exchanged (session protocol, rule 7).
    this.cleanAddress(url);
    this.set('signing-in', null, null);
    let returnTo = '/';
    let requestType: string | undefined;
    try {
      const { state } = await this.oidcClient().readSigninResponseState(url, false);
      requestType = state.request_type;
      const data = state.data as { returnTo?: unknown } | undefined;
      returnTo = safeReturnTo(data?.returnTo, this.origin());
      const issuer = await this.assertIssuer();
      await this.checkCallbackIssuer(url, params, issuer);
      const user = await this.exchangeFresh(() => this.userManager.signinCallback(url));
      if (user === undefined) return; // a popup or iframe callback, handed to the opener
      await this.beginSession(user);
    } catch (cause) {
      const error = toAuthError(cause, operation);
      if (requestType === 'si:p' || requestType === 'si:s') {
        // This is the popup or the silent iframe. The session is its opener's, whose storage it
        // may share: leave it alone, and hand the failure over (the opener then closes a popup).
        this.set('error', null, error);
        const failed = handOverUrl(url, error);
        await (
          requestType === 'si:p'
            ? this.userManager.signinPopupCallback(failed)
            : this.userManager.signinSilentCallback(failed)
        ).catch(() => undefined);
        return;
      }
      // The response is spent, whatever failed: a replay of it finds no sign-in to finish.
      await this.oidcClient()
        .readSigninResponseState(url, true)
        .catch(() => undefined);
      // A failed sign-in (a cancelled step-up, a forged or replayed response) says nothing about
      // the session there is: keep it (rule 6).
      const stored = await this.readStored().catch(() => null);
      if (stored !== null && this.isCurrent(stored, this.records().read())) {
        this.session = stored.session;
        // A replayed or forged response is no failure of the user's: nothing to report.
        const shown = error.code === 'callback_state_mismatch' ? null : error;
        this.set('authenticated', stored.user, shown);
        this.scheduleRenewal(stored.user);
      } else {
        await this.clearUser();
        const code = error.code;
        this.set(code === 'callback_state_mismatch' ? 'unauthenticated' : 'error', null, error);
      }
    }
    (this.environment.navigate ?? defaultNavigate)(returnTo);
  }

  /** Whether `url` is the return from the provider's logout to `post_logout_redirect_uri`. */
  private isSignOutReturn(url: string): boolean {
    const target = this.config.oidc.post_logout_redirect_uri;
    if (target === undefined) return false;
    const current = new URL(url);
    const expected = new URL(target);
    if (current.origin !== expected.origin || current.pathname !== expected.pathname) return false;
    return (
      current.searchParams.has('state') ||
      this.signOutMarks()?.getItem(this.signOutMarkKey()) != null
    );
  }

  /** Completes the return from the provider's logout: `state` checked, the address cleaned. */
  private async completeSignOut(url: string): Promise<void> {
    const marks = this.signOutMarks();
    const mark = marks?.getItem(this.signOutMarkKey()) ?? null;
    marks?.removeItem(this.signOutMarkKey());
    let error: AuthError | null = null;
    let reason: SignOutReason | null = null;
    try {
      // A provider that returns without `state` is accepted; one that returns a `state` must
      // return the one this browser sent.
      const { response } = await this.oidcClient().readSignoutResponseState(url, true);
      // An error from the provider's logout: the provider session may well be alive.
      if (response.error) throw Object.assign(response, { name: 'ErrorResponse' });
      reason = mark === 'idle' ? 'idle' : 'user';
    } catch (cause) {
      error = toAuthError(cause, 'sign-out');
    }
    const clean = new URL(url);
    for (const name of ['state', 'error', 'error_description', 'error_uri']) {
      clean.searchParams.delete(name);
    }
    if (globalThis.location.href === url) {
      history.replaceState(history.state, '', `${clean.pathname}${clean.search}${clean.hash}`);
    }
    await this.restore();
    if (this.snapshot.status === 'unauthenticated')
      this.set('unauthenticated', null, error, reason);
  }

  private async runRenew(): Promise<User | null> {
    const epoch = this.epoch;
    const before = this.snapshot.user ?? (await this.readStored().catch(() => null))?.user ?? null;
    if (before === null) return null;
    try {
      // A tab without the refresh token (memory storage) asks the tab that holds it first.
      const followed = await this.renewThroughOtherTab(before, epoch);
      const user =
        followed ?? (await this.withRenewLock(() => this.renewHoldingLock(before, epoch)));
      this.renewRetries = 0;
      return user;
    } catch (cause) {
      if (this.epoch !== epoch) return null; // signed out meanwhile: nothing left to renew
      const error = toAuthError(cause, 'renew');
      const current = this.snapshot.user ?? before;
      const exhausted = this.renewRetries >= maxRenewRetries && current.expired === true;
      if (error.code === 'session_expired' || error.code === 'id_token_invalid' || exhausted) {
        await this.endSession(error, await this.noTabCanRenew(current));
        return null;
      }
      // A passing failure (network, provider down): keep the session, retry a bounded few times.
      this.set('authenticated', current, error);
      this.scheduleRetry();
      throw error;
    }
  }

  /**
   * Whether the session cannot go on in any tab: no refresh token may be sent (spent, or none),
   * or the one that may is this tab's. Else a tab that holds it may still renew.
   */
  private async noTabCanRenew(current: User): Promise<boolean> {
    const record = this.records().read();
    if (record === null || record.refresh === null) return true;
    return this.refreshGuard().isCurrent(record, current.refresh_token);
  }

  private async renewThroughOtherTab(before: User, epoch: number): Promise<User | null> {
    if (before.refresh_token !== undefined || this.config.storage !== 'memory') return null;
    const shared = await this.tabs?.request(
      'renew-request',
      this.config.timeout + 1000,
      (session) => session.id === this.session,
    );
    if (shared == null || this.epoch !== epoch) return null;
    const user = await this.adopt(shared);
    if (user === null || user.access_token === before.access_token) return null;
    this.signedIn(user);
    return user;
  }

  private async renewHoldingLock(before: User, epoch: number): Promise<User | null> {
    const session = this.session;
    if (this.epoch !== epoch || session === null) return null;
    const current = (await this.readStored())?.user ?? null;
    if (this.epoch !== epoch) return null;
    if (current === null) {
      throw new AuthError('session_expired', 'The session ended while waiting to renew it.', {
        handled: 'The local session was cleared.',
      });
    }
    // Another tab renewed while this one waited for the lock (shared storage): use its tokens.
    if (current.access_token !== before.access_token && current.expired !== true) {
      this.signedIn(current);
      return current;
    }
    if ((globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false) {
      // Offline: a request now would only spend the token on an answer that cannot come back.
      throw new AuthError('network', 'The identity provider could not be reached (offline).', {
        handled: 'The session is kept while its tokens are valid; renewal is retried.',
      });
    }
    const guard = this.refreshGuard();
    const decision = await guard.claim(session, current.refresh_token);
    if (this.epoch !== epoch) return null;
    if (decision === 'ended') {
      // Signed out or replaced in another tab, whose news has not reached this one yet.
      this.recheck();
      return null;
    }
    if (decision === 'send') return this.refresh(current, session, epoch);
    const record = this.records().read();
    if (record?.session !== session) {
      this.recheck();
      return null;
    }
    if (decision === 'not-current' && record.refresh !== null) {
      // Another tab rotated this tab's refresh token: never send it again. Take the current tokens
      // from the tab that holds them, else authorize silently.
      const adopted = await this.currentFromOtherTab(record, before);
      if (this.epoch !== epoch) return null;
      if (adopted !== null) {
        this.signedIn(adopted);
        return adopted;
      }
    }
    const latest = this.records().read();
    if (latest?.session !== session) {
      this.recheck();
      return null;
    }
    if (guard.tooSoon(latest)) {
      // The session asked the provider under 10 s ago (rule 5): keep what there is.
      this.scheduleRenewal(current);
      return current;
    }
    return this.authorizeSilently(latest, epoch);
  }

  /** The session's current tokens from the tab that holds them, or null (no answer, or stale). */
  private async currentFromOtherTab(record: SessionRecord, before: User): Promise<User | null> {
    const shared = await this.tabs?.request(
      'session-request',
      2000,
      (session) => session.id === record.session,
    );
    if (shared == null) return null;
    // An answer from a tab as stale as this one would make this tab authorize silently for nothing.
    const offered = User.fromStorageString(shared.user);
    const keepsRefreshToken = this.config.storage !== 'memory';
    if (
      keepsRefreshToken &&
      !(await this.refreshGuard().isCurrent(record, offered.refresh_token))
    ) {
      return null;
    }
    if (offered.access_token === before.access_token) return null;
    return this.adopt(shared);
  }

  /** Sends the refresh token, which the guard has marked spent. */
  private async refresh(current: User, session: string, epoch: number): Promise<User | null> {
    let user: User | null;
    try {
      // Passed explicitly: oidc-client-ts drops its configured timeout for refresh requests
      // when this argument is absent.
      user = await this.userManager.signinSilent({
        nonce: randomNonce(),
        silentRequestTimeoutInSeconds: this.config.timeout / 1000,
      });
    } catch (error) {
      const answer = (error as { name?: unknown; error?: unknown } | null) ?? {};
      // The provider answered and refused for a passing reason: it did not use the token. Any
      // other failure (no answer, a timeout) may follow a rotation: the token stays spent, and a
      // later attempt authorizes silently (rule 1), at the pace of rule 5.
      if (answer.name === 'ErrorResponse' && !sessionOverErrors.has(answer.error as string)) {
        await this.refreshGuard().settle(session, current.refresh_token);
      }
      throw error;
    }
    return this.renewed(user, session, epoch);
  }

  /** Renews through a hidden `prompt=none` authorization, where the provider session allows. */
  private async authorizeSilently(record: SessionRecord, epoch: number): Promise<User | null> {
    this.refreshGuard().startRequest(record);
    const user = await this.userManager.signinSilent({
      forceIframeAuth: true,
      nonce: randomNonce(),
      silentRequestTimeoutInSeconds: this.config.timeout / 1000,
    });
    return this.renewed(user, record.session, epoch);
  }

  private async renewed(user: User | null, session: string, epoch: number): Promise<User | null> {
    if (this.epoch !== epoch) {
      // Signed out (here or in another tab) while the request was under way: drop what came back.
      await this.clearUser();
      return null;
    }
    if (user === null) {
      throw new AuthError('session_expired', 'The provider returned no session on renewal.', {
        handled: 'The local session was cleared.',
      });
    }
    await this.refreshGuard().settle(session, user.refresh_token);
    this.signedIn(user, 'renewed');
    return user;
  }

  private async onTabMessage(message: TabMessage): Promise<void> {
    if (this.disposed) return;
    const user = this.snapshot.user;
    switch (message.type) {
      case 'session-request':
        if (user !== null && this.session !== null) {
          this.tabs?.post({ type: 'session', to: message.from, session: this.share(user) });
        }
        return;
      case 'renew-request': {
        if (user?.refresh_token === undefined || this.session === null) return;
        const renewed = (await this.renew().catch(() => null)) ?? this.snapshot.user;
        if (renewed !== null && this.session !== null) {
          this.tabs?.post({ type: 'session', to: message.from, session: this.share(renewed) });
        }
        return;
      }
      case 'signed-in':
      case 'renewed': {
        if (this.snapshot.status === 'signing-out') return;
        // A renewal belongs to a session this tab has; a tab without one waits for a sign-in.
        if (message.type === 'renewed' && (user === null || message.session.id !== this.session))
          return;
        const shared = await this.adopt(message.session);
        if (shared !== null) this.signedIn(shared);
        return;
      }
      case 'signed-out':
        // Whatever this tab is doing (a step-up under way too), the session it holds is over.
        if (message.session !== this.session) return;
        this.epoch += 1;
        this.stopRenewing();
        this.session = null;
        await this.clearUser();
        this.set(
          'unauthenticated',
          null,
          signedOutElsewhere(message.reason),
          message.reason === 'session_expired' ? 'expired' : 'elsewhere',
        );
        return;
      default:
        return;
    }
  }

  /**
   * Takes a session another tab shared, when it is the session the record names and its ID token
   * passes the checks (signature included when verification is on). Returns the user, or null.
   */
  private async adopt(shared: SharedSession): Promise<User | null> {
    const epoch = this.epoch;
    try {
      if (this.records().read()?.session !== shared.id) return null;
      const keepRefreshToken = this.config.storage !== 'memory';
      const idToken = (JSON.parse(shared.user) as { id_token?: unknown }).id_token;
      if (typeof idToken !== 'string') return null;
      const claims = await this.checkIdTokenOf(idToken, false);
      const user = receiveUser(shared.user, claims, keepRefreshToken);
      if (this.epoch !== epoch || this.records().read()?.session !== shared.id) return null;
      this.session = shared.id;
      await this.userStore().setTrusted(this.userKey(), user.toStorageString(), shared.id);
      return user;
    } catch {
      return null;
    }
  }

  private share(user: User): SharedSession {
    return shareSession(this.session as string, user, this.config.storage !== 'memory');
  }

  /** Runs a sign-in exchange whose user is stored as a new session of this tab. */
  private async exchangeFresh<T>(exchange: () => Promise<T>): Promise<T> {
    this.incoming = newSessionId();
    this.freshSignIn = true;
    try {
      return await exchange();
    } finally {
      this.freshSignIn = false;
    }
  }

  /** Makes the session of the sign-in just finished this tab's, records it, then announces it. */
  private async beginSession(user: User): Promise<void> {
    const session = this.incoming as string;
    this.incoming = null;
    this.session = session;
    await this.withRenewLock(() => this.bookSession(session, user));
    this.signedIn(user, 'signed-in');
  }

  private async bookSession(session: string, user: User): Promise<void> {
    const refresh = user.refresh_token === undefined ? null : await tokenId(user.refresh_token);
    // The floor of rule 5 spaces renewals; a new session has had none yet.
    this.records().write({ session, refresh, requested: 0 });
  }

  private signedIn(user: User, announce?: 'signed-in' | 'renewed'): void {
    this.set('authenticated', user, null);
    this.scheduleRenewal(user);
    if (announce !== undefined && this.session !== null) {
      this.tabs?.post({ type: announce, session: this.share(user) });
    }
  }

  /** Ends the session here, and in every tab when `everywhere` (no tab can renew it). */
  private async endSession(error: AuthError, everywhere: boolean): Promise<void> {
    const ended = this.session;
    this.epoch += 1;
    this.stopRenewing();
    this.session = null;
    await this.clearUser();
    if (everywhere && ended !== null) {
      this.records().remove(ended);
      this.tabs?.post({ type: 'signed-out', session: ended, reason: 'session_expired' });
    }
    this.set('unauthenticated', null, error, 'expired');
  }

  private scheduleRenewal(user: User): void {
    this.stopRenewing();
    const expiresAt = user.expires_at;
    if (expiresAt === undefined || this.disposed) return;
    const left = Math.max(0, expiresAt * 1000 - Date.now());
    const last = this.records().read()?.requested ?? 0;
    // Renew a minute before expiry (half the lifetime when shorter), never sooner than the
    // session's last token request allows (rule 5).
    const at = Math.max(expiresAt * 1000 - Math.min(60_000, left / 2), last + minRequestInterval);
    this.renewTimer.schedule(at, () => void this.renew().catch(() => undefined));
  }

  private scheduleRetry(): void {
    this.stopRenewing();
    this.renewRetries += 1;
    if (this.renewRetries > maxRenewRetries || this.disposed) return;
    // Exponential backoff with jitter, so tabs and clients that failed together do not retry so.
    const delay = 2 ** this.renewRetries * 2500 * (0.75 + Math.random() / 2);
    const last = this.records().read()?.requested ?? 0;
    const at = Math.max(Date.now() + delay, last + minRequestInterval);
    this.renewTimer.schedule(at, () => void this.renew().catch(() => undefined));
  }

  private stopRenewing(): void {
    this.renewTimer.cancel();
  }

  private set(
    status: AuthStatus,
    user: User | null,
    error: AuthError | null,
    signOutReason: SignOutReason | null = null,
  ): void {
    if (this.disposed) return;
    const from = this.snapshot.status;
    if (from !== status && !canTransition(from, status) && process.env.NODE_ENV !== 'production') {
      throw new Error(`oidc-kit: internal error, no transition from ${from} to ${status}.`);
    }
    const next = createAuthSnapshot(status, user, error, signOutReason);
    const current = this.snapshot;
    if (
      current.status === next.status &&
      current.user === next.user &&
      current.error === next.error &&
      current.signOutReason === next.signOutReason
    ) {
      return;
    }
    this.snapshot = next;
    for (const listener of [...this.listeners]) listener();
  }

  private async assertIssuer(): Promise<string> {
    const issuer = await this.userManager.metadataService.getIssuer();
    if (issuer !== this.config.oidc.authority) {
      throw new AuthError(
        'config_invalid',
        `oidc-kit config: \`authority\` must be exactly the issuer the provider announces: ${JSON.stringify(issuer)} (got ${JSON.stringify(this.config.oidc.authority)}).`,
        { field: 'authority', handled: 'Nothing was sent to the identity provider.' },
      );
    }
    return issuer;
  }

  private async checkCallbackIssuer(
    url: string,
    params: URLSearchParams,
    issuer: string,
  ): Promise<void> {
    // RFC 9207: the authorization response names its issuer, against mix-up attacks.
    const metadata = (await this.userManager.metadataService.getMetadata()) as Record<
      string,
      unknown
    >;
    const announced = metadata.authorization_response_iss_parameter_supported;
    const iss = params.get('iss');
    if (iss === null ? announced !== true : iss === issuer) return;
    throw idTokenInvalid(
      'callback_iss',
      iss === null
        ? 'the provider announces RFC 9207 but the callback has no `iss` parameter.'
        : `the callback's \`iss\` ${JSON.stringify(iss)} is not the provider's ${JSON.stringify(issuer)}.`,
    );
  }

  private async checkUser(user: User, previous: User | null): Promise<void> {
    const idToken = user.id_token;
    if (idToken === undefined) {
      throw idTokenInvalid(
        'format',
        'the provider returned no ID token (is `openid` in the scope?).',
      );
    }
    const claims = await this.checkIdTokenOf(idToken, true);
    if (previous !== null && !this.freshSignIn && previous.profile.sub !== claims.sub) {
      throw idTokenInvalid('sub', 'a renewal returned an ID token for another user.');
    }
  }

  /**
   * The ID-token checks (rule 3), the signature's too when verification is on. A token from another
   * tab skips the time checks, and is held to the configured authority, which sign-in checked is
   * the discovered issuer (so a new tab takes a session without a request).
   */
  private async checkIdTokenOf(idToken: string, fromProvider: boolean) {
    const issuer = fromProvider
      ? await this.userManager.metadataService.getIssuer()
      : this.config.oidc.authority;
    const claims = checkIdToken(idToken, {
      issuer,
      clientId: this.config.oidc.client_id,
      clockLeeway: this.config.clockLeeway,
      times: fromProvider,
    });
    if (this.config.verifySignature) {
      const jwksUri = await this.userManager.metadataService.getKeysEndpoint(false);
      await verifyIdTokenSignature(idToken, jwksUri, this.config.timeout);
    }
    return claims;
  }

  private oidcClient(): OidcClient {
    return new OidcClient(this.userManager.settings, this.userManager.metadataService);
  }

  private async revoke(user: User): Promise<void> {
    const client = this.oidcClient();
    const tokens: [string | undefined, 'refresh_token' | 'access_token'][] = [
      [user.refresh_token, 'refresh_token'],
      [user.access_token, 'access_token'],
    ];
    for (const [token, type] of tokens) {
      // Best effort: the local session is gone already, and an unrevoked token expires.
      if (token !== undefined) await client.revokeToken(token, type).catch(() => undefined);
    }
  }

  private async clearUser(): Promise<void> {
    await this.userStore()
      .remove(this.userKey())
      .catch(() => undefined);
  }

  private readStored(): Promise<StoredUser | null> {
    return this.userStore().read(this.userKey());
  }

  private userStore(): CheckedUserStore {
    void this.userManager;
    return this.store as CheckedUserStore;
  }

  private userKey(): string {
    const { authority, client_id } = this.userManager.settings;
    return `user:${authority}:${client_id}`;
  }

  private records(): SessionRecords {
    const { authority, client_id } = this.config.oidc;
    this.sessionRecords ??= new SessionRecords(
      `oidc-kit:session:${authority}:${client_id}`,
      this.environment.sharedStorage === undefined
        ? browserStorage('localStorage')
        : this.environment.sharedStorage,
    );
    return this.sessionRecords;
  }

  private refreshGuard(): RefreshGuard {
    return new RefreshGuard(this.records());
  }

  private withRenewLock<T>(task: () => Promise<T>): Promise<T> {
    const { authority, client_id } = this.config.oidc;
    return withLock(
      `oidc-kit:renew:${authority}:${client_id}`,
      task,
      this.environment.locks === undefined ? undefined : this.environment.locks,
    );
  }

  /** Where a sign-out that leaves for the provider notes its reason for the return (this tab). */
  private signOutMarks(): Storage | null {
    return browserStorage('sessionStorage');
  }

  private signOutMarkKey(): string {
    return `oidc-kit:signed-out:${this.config.oidc.authority}:${this.config.oidc.client_id}`;
  }

  private createUserManager(): UserManager {
    const check = (user: User, previous: User | null) => this.checkUser(user, previous);
    const session = () => (this.freshSignIn ? this.incoming : this.session);
    if (this.givenUserManager !== undefined) {
      const settings = this.givenUserManager.settings as unknown as { userStore: CheckedUserStore };
      this.store = new CheckedUserStore(settings.userStore, check, session);
      settings.userStore = this.store;
      this.givenUserManager.stopSilentRenew();
      return this.givenUserManager;
    }
    const storage =
      this.environment.storage ??
      (this.config.storage === 'memory'
        ? new InMemoryWebStorage()
        : browserStorage(this.config.storage === 'local' ? 'localStorage' : 'sessionStorage')) ??
      new InMemoryWebStorage();
    this.store = new CheckedUserStore(new WebStorageStateStore({ store: storage }), check, session);
    const seconds = this.config.timeout / 1000;
    const settings: UserManagerSettings = {
      ...this.config.oidc,
      // The silent iframe lands on the callback route, which hands the response to this page.
      silent_redirect_uri: this.config.oidc.silent_redirect_uri ?? this.config.oidc.redirect_uri,
      userStore: this.store,
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
    const { redirect, silentFrame } = this.environment;
    const redirectNavigator =
      redirect === undefined
        ? undefined
        : {
            prepare: async () => ({
              navigate: async ({ url }: { url: string }) => {
                redirect(url);
                return new Promise<never>(() => undefined);
              },
              close: () => undefined,
            }),
            callback: async () => undefined,
          };
    const frameNavigator =
      silentFrame === undefined
        ? undefined
        : {
            prepare: async () => ({
              navigate: async ({ url }: { url: string }) => ({ url: await silentFrame(url) }),
              close: () => undefined,
            }),
            callback: async () => undefined,
          };
    return new UserManager(settings, redirectNavigator, undefined, frameNavigator);
  }

  /** Whether `url` is a sign-in response on one of the redirect URIs (page, popup or iframe). */
  private isCallback(url: string): boolean {
    const current = new URL(url);
    // The settings oidc-client-ts uses (popup_redirect_uri defaults to redirect_uri there), so a
    // ready-made UserManager's URIs count too.
    const { redirect_uri, popup_redirect_uri, silent_redirect_uri } = this.userManager.settings;
    return (
      [redirect_uri, popup_redirect_uri, silent_redirect_uri].some((uri) => {
        const target = uri === undefined ? null : new URL(uri);
        return target?.origin === current.origin && target.pathname === current.pathname;
      }) &&
      current.searchParams.has('state') &&
      (current.searchParams.has('code') || current.searchParams.has('error'))
    );
  }

  private cleanAddress(url: string): void {
    const clean = new URL(url);
    for (const name of authParams) clean.searchParams.delete(name);
    if (globalThis.location.href === url) {
      history.replaceState(history.state, '', `${clean.pathname}${clean.search}${clean.hash}`);
    }
  }

  private currentPath(): string {
    const { pathname, search, hash } = globalThis.location;
    return `${pathname}${search}${hash}`;
  }

  private origin(): string {
    return globalThis.location.origin;
  }
}

function signedOutElsewhere(reason: 'signed_out_elsewhere' | 'session_expired'): AuthError {
  return new AuthError(
    reason,
    reason === 'session_expired'
      ? 'The session ended at the identity provider.'
      : 'You signed out in another tab.',
    { handled: 'The local session was cleared.' },
  );
}

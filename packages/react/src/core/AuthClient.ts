import {
  InMemoryWebStorage,
  OidcClient,
  User,
  UserManager,
  WebStorageStateStore,
} from 'oidc-client-ts';
import type { UserManagerSettings } from 'oidc-client-ts';
import { canTransition, createAuthSnapshot, initialAuthSnapshot } from './authState';
import type { AuthSnapshot, AuthStatus } from './authState';
import { createAuthFetch } from './authFetch';
import type { AuthFetch } from './authFetch';
import { CheckedUserStore } from './CheckedUserStore';
import { validateConfig } from './config';
import type { AuthConfig, AuthOptions, ResolvedAuthConfig } from './config';
import { AuthError } from './errors';
import { checkIdToken, idTokenInvalid } from './idToken';
import { handOverUrl } from './handOver';
import { safeReturnTo } from './returnTo';
import { TabSync, withLock } from './tabSync';
import type { ChannelLike, LockManagerLike, TabMessage } from './tabSync';
import { toAuthError } from './toAuthError';
import type { AuthOperation } from './toAuthError';
import { verifyIdTokenSignature } from './verifyIdTokenSignature';

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
const consumedMemory = new Set<string>();
const maxRenewRetries = 3;

function hash(text: string): string {
  // FNV-1a: an identifier for a consumed refresh token that reveals nothing about it.
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return (value >>> 0).toString(36);
}

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
  private started: Promise<void> | undefined;
  private renewing: Promise<User | null> | undefined;
  private signingIn: Promise<void> | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private renewRetries = 0;
  /** Bumped whenever the session ends, so work begun for the old session cannot revive it. */
  private epoch = 0;
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
   * Restores the session: processes a sign-in callback in the URL, else reads the stored user,
   * else asks the other open tabs. Safe to call many times; later calls share the first run.
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
        this.freshSignIn = true;
        const user = await this.userManager
          .signinPopup({ ...args, popupAbortOnClose: true })
          .finally(() => {
            this.freshSignIn = false;
          });
        this.signedIn(user, 'signed-in');
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
   * ends the session at the provider with `id_token_hint` and returns to `post_logout_redirect_uri`.
   */
  async signOut(options: SignOutOptions = {}): Promise<void> {
    const user = this.snapshot.user ?? (await this.userManager.getUser());
    this.epoch += 1;
    this.stopRenewing();
    this.set('signing-out', null, null);
    await this.clearUser();
    this.tabs?.post({ type: 'signed-out', reason: 'signed_out_elsewhere' });
    if (options.revokeTokens === true && user !== null) await this.revoke(user);

    const endSession = await this.userManager.metadataService
      .getEndSessionEndpoint()
      .catch(() => undefined);
    if (options.redirect === false || endSession === undefined) {
      this.set('unauthenticated', null, null);
      return;
    }
    try {
      await this.userManager.signoutRedirect({
        id_token_hint: user?.id_token,
        post_logout_redirect_uri: this.config.oidc.post_logout_redirect_uri,
      });
    } catch (cause) {
      this.set('unauthenticated', null, toAuthError(cause, 'sign-out'));
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
    this.set(status, this.snapshot.user, null);
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
      // A page restored from the back-forward cache must not stay mid-redirect.
      if (!event.persisted) return;
      if (this.snapshot.status === 'signing-out') this.set('unauthenticated', null, null);
      if (this.snapshot.status === 'signing-in') {
        this.signingIn = undefined;
        void this.restore();
      }
    };
    globalThis.addEventListener('pageshow', onPageShow);
    this.teardown.push(() => globalThis.removeEventListener('pageshow', onPageShow));
  }

  private async restore(): Promise<void> {
    let user: User | null = null;
    try {
      user = await this.userManager.getUser();
    } catch {
      await this.clearUser();
    }
    if (user === null && this.tabs !== undefined) {
      const shared = await this.tabs.requestSession(this.environment.tabSessionWait ?? 150);
      if (shared !== null) user = await this.adopt(shared);
    }
    if (this.disposed) return;
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

  private async processCallback(url: string): Promise<void> {
    const params = new URL(url).searchParams;
    const operation: AuthOperation = params.has('error') ? 'sign-in' : 'callback';
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
      this.freshSignIn = true;
      const user = await this.userManager.signinCallback(url).finally(() => {
        this.freshSignIn = false;
      });
      if (user === undefined) return; // a popup or iframe callback, handed to the opener
      this.cleanAddress(url);
      this.signedIn(user, 'signed-in');
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
      this.cleanAddress(url);
      if (error.code === 'callback_state_mismatch') {
        // A replayed or forged callback says nothing about the session: keep the one there is.
        const stored = await this.userManager.getUser().catch(() => null);
        if (stored !== null) this.signedIn(stored);
        else this.set('unauthenticated', null, error);
      } else {
        await this.clearUser();
        this.set('error', null, error);
      }
    }
    (this.environment.navigate ?? defaultNavigate)(returnTo);
  }

  private async runRenew(): Promise<User | null> {
    const epoch = this.epoch;
    const before = this.snapshot.user ?? (await this.userManager.getUser().catch(() => null));
    if (before === null) return null;
    const { authority, client_id } = this.config.oidc;
    try {
      const user = await withLock(
        `oidc-kit:renew:${authority}:${client_id}`,
        () => this.renewHoldingLock(before, epoch),
        this.environment.locks === undefined ? undefined : this.environment.locks,
      );
      this.renewRetries = 0;
      return user;
    } catch (cause) {
      if (this.epoch !== epoch) return null; // signed out meanwhile: nothing left to renew
      const error = toAuthError(cause, 'renew');
      const current = this.snapshot.user ?? before;
      const exhausted = this.renewRetries >= maxRenewRetries && current.expired === true;
      if (error.code === 'session_expired' || error.code === 'id_token_invalid' || exhausted) {
        await this.endSession(error);
        return null;
      }
      // A passing failure (network, provider down): keep the session, retry a bounded few times.
      this.set('authenticated', current, error);
      this.scheduleRetry();
      throw error;
    }
  }

  private async renewHoldingLock(before: User, epoch: number): Promise<User | null> {
    const manager = this.userManager;
    if (this.epoch !== epoch) return null;
    let current = await manager.getUser();
    if (current === null) {
      throw new AuthError('session_expired', 'The session ended while waiting to renew it.', {
        handled: 'The local session was cleared.',
      });
    }
    // Another tab renewed while this one waited for the lock: use its tokens.
    if (current.access_token !== before.access_token && current.expired !== true) {
      this.signedIn(current);
      return current;
    }
    if (current.refresh_token !== undefined && this.isConsumed(current.refresh_token)) {
      // This tab's refresh token was used by another tab whose news has not arrived yet: sending it
      // again would make the provider revoke the whole grant (refresh token reuse detection).
      current = await this.awaitSharedRenewal(before.access_token);
      this.signedIn(current);
      return current;
    }
    const consumed = current.refresh_token;
    if (consumed !== undefined) this.markConsumed(consumed, true);
    let user: User | null;
    try {
      // Passed explicitly: oidc-client-ts drops its configured timeout for refresh requests
      // when this argument is absent.
      user = await manager.signinSilent({
        nonce: randomNonce(),
        silentRequestTimeoutInSeconds: this.config.timeout / 1000,
      });
    } catch (error) {
      // The provider answered without new tokens (or was never reached): the token is still this
      // session's only way to renew. After a timeout it may have been used, so it stays marked.
      const timedOut = (error as { name?: unknown } | null)?.name === 'ErrorTimeout';
      if (consumed !== undefined && !timedOut) this.markConsumed(consumed, false);
      throw error;
    }
    // A provider that does not rotate refresh tokens hands the same one back: it is still good.
    if (consumed !== undefined && user?.refresh_token === consumed)
      this.markConsumed(consumed, false);
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
    this.signedIn(user, 'renewed');
    return user;
  }

  private async awaitSharedRenewal(staleToken: string): Promise<User> {
    const shared = await this.tabs?.requestSession(2000);
    const user = shared === undefined || shared === null ? null : User.fromStorageString(shared);
    if (user === null || user.access_token === staleToken) {
      throw new AuthError('renew_failed', 'Another tab renewed the session but did not share it.', {
        handled: 'The stale refresh token was not sent again.',
      });
    }
    await this.adopt(shared as string);
    return user;
  }

  private async onTabMessage(message: TabMessage): Promise<void> {
    if (this.disposed) return;
    const user = this.snapshot.user;
    switch (message.type) {
      case 'session-request':
        if (user !== null && this.snapshot.status === 'authenticated') {
          this.tabs?.post({ type: 'session', to: message.from, user: user.toStorageString() });
        }
        return;
      case 'signed-in':
      case 'renewed': {
        if (this.snapshot.status === 'signing-out') return;
        // A renewal belongs to a session this tab has; a tab without one waits for a sign-in.
        if (message.type === 'renewed' && user === null) return;
        const shared = await this.adopt(message.user);
        if (shared !== null) this.signedIn(shared);
        return;
      }
      case 'signed-out':
        if (user === null && this.snapshot.status !== 'loading') return;
        this.epoch += 1;
        this.stopRenewing();
        await this.clearUser();
        this.set(
          'unauthenticated',
          null,
          new AuthError(
            message.reason,
            message.reason === 'session_expired'
              ? 'The session ended at the identity provider.'
              : 'You signed out in another tab.',
            { handled: 'The local session was cleared.' },
          ),
        );
        return;
      default:
        return;
    }
  }

  private async adopt(storageString: string): Promise<User | null> {
    try {
      const user = User.fromStorageString(storageString);
      const store = this.userStore();
      await store.setTrusted(this.userKey(), user.toStorageString());
      return user;
    } catch {
      return null;
    }
  }

  private signedIn(user: User, announce?: 'signed-in' | 'renewed'): void {
    this.set('authenticated', user, null);
    this.scheduleRenewal(user);
    if (announce !== undefined) this.tabs?.post({ type: announce, user: user.toStorageString() });
  }

  private async endSession(error: AuthError): Promise<void> {
    this.epoch += 1;
    this.stopRenewing();
    await this.clearUser();
    this.tabs?.post({ type: 'signed-out', reason: 'session_expired' });
    this.set('unauthenticated', null, error);
  }

  private scheduleRenewal(user: User): void {
    this.stopRenewing();
    const left = user.expires_in;
    if (left === undefined || this.disposed) return;
    const delay = Math.max(0, left - Math.min(60, left / 2)) * 1000;
    this.renewTimer = setTimeout(() => void this.renew().catch(() => undefined), delay);
  }

  private scheduleRetry(): void {
    this.stopRenewing();
    this.renewRetries += 1;
    if (this.renewRetries > maxRenewRetries || this.disposed) return;
    const delay = 2 ** this.renewRetries * 2500;
    this.renewTimer = setTimeout(() => void this.renew().catch(() => undefined), delay);
  }

  private stopRenewing(): void {
    if (this.renewTimer !== undefined) clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
  }

  private set(status: AuthStatus, user: User | null, error: AuthError | null): void {
    if (this.disposed) return;
    const from = this.snapshot.status;
    if (from !== status && !canTransition(from, status) && process.env.NODE_ENV !== 'production') {
      throw new Error(`oidc-kit: internal error, no transition from ${from} to ${status}.`);
    }
    const next = createAuthSnapshot(status, user, error);
    const current = this.snapshot;
    if (
      current.status === next.status &&
      current.user === next.user &&
      current.error === next.error
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
    const issuer = await this.userManager.metadataService.getIssuer();
    const claims = checkIdToken(idToken, {
      issuer,
      clientId: this.config.oidc.client_id,
      clockLeeway: this.config.clockLeeway,
    });
    if (previous !== null && !this.freshSignIn && previous.profile.sub !== claims.sub) {
      throw idTokenInvalid('sub', 'a renewal returned an ID token for another user.');
    }
    if (this.config.verifySignature) {
      const jwksUri = await this.userManager.metadataService.getKeysEndpoint(false);
      await verifyIdTokenSignature(idToken, jwksUri, this.config.timeout);
    }
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

  private userStore(): CheckedUserStore {
    void this.userManager;
    return this.store as CheckedUserStore;
  }

  private userKey(): string {
    const { authority, client_id } = this.userManager.settings;
    return `user:${authority}:${client_id}`;
  }

  private isConsumed(refreshToken: string): boolean {
    return this.consumedList().includes(hash(refreshToken));
  }

  private markConsumed(refreshToken: string, consumed: boolean): void {
    const id = hash(refreshToken);
    const others = this.consumedList().filter((entry) => entry !== id);
    const list = (consumed ? [...others, id] : others).slice(-8);
    const shared = this.sharedStorage();
    if (shared !== null) shared.setItem(this.consumedKey(), JSON.stringify(list));
    else if (consumed) consumedMemory.add(id);
    else consumedMemory.delete(id);
  }

  private consumedList(): string[] {
    const shared = this.sharedStorage();
    if (shared === null) return [...consumedMemory];
    try {
      const parsed: unknown = JSON.parse(shared.getItem(this.consumedKey()) ?? '[]');
      return Array.isArray(parsed)
        ? parsed.filter((entry): entry is string => typeof entry === 'string')
        : [];
    } catch {
      return [];
    }
  }

  private consumedKey(): string {
    return `oidc-kit:consumed:${this.config.oidc.authority}:${this.config.oidc.client_id}`;
  }

  private sharedStorage(): Storage | null {
    return this.environment.sharedStorage === undefined
      ? browserStorage('localStorage')
      : this.environment.sharedStorage;
  }

  private createUserManager(): UserManager {
    const check = (user: User, previous: User | null) => this.checkUser(user, previous);
    if (this.givenUserManager !== undefined) {
      const settings = this.givenUserManager.settings as unknown as { userStore: CheckedUserStore };
      this.store = new CheckedUserStore(settings.userStore, check);
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
    this.store = new CheckedUserStore(new WebStorageStateStore({ store: storage }), check);
    const seconds = this.config.timeout / 1000;
    const settings: UserManagerSettings = {
      ...this.config.oidc,
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
    const redirect = this.environment.redirect;
    if (redirect === undefined) return new UserManager(settings);
    return new UserManager(settings, {
      prepare: async () => ({
        navigate: async ({ url }) => {
          redirect(url);
          return new Promise<never>(() => undefined);
        },
        close: () => undefined,
      }),
      callback: async () => undefined,
    });
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

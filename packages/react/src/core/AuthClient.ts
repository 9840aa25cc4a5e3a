import type { User, UserManager } from 'oidc-client-ts';
import { initialAuthSnapshot } from './authState';
import type { AuthSnapshot } from './authState';
import { lazyAuthFetch } from './createAuthFetch';
import type { AuthFetch } from './authFetch';
import { clientConfig } from './clientConfig';
import type { AuthClientConfig } from './clientConfig';
import type { ResolvedAuthConfig } from './configTypes';
import { createUserManager } from './createUserManager';
import { isAuthError } from './errors';
import { withEngine } from './loadEngine';
import type { SessionCore, Users } from './SessionCore';
import { StateStore } from './stateStore';
import { inactiveIdle } from './idleSnapshot';
import type { IdleControl } from './idleSnapshot';
import { warnRoleReader } from './warnRoleReader';
import type {
  AuthClientEnvironment,
  AuthHeadersOptions,
  SignInOptions,
  SignOutOptions,
} from './clientOptions';

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

  private readonly authState = new StateStore();
  private readonly environment: AuthClientEnvironment;
  private readonly users: Users;
  private core: SessionCore | undefined;
  /** Calls to `start()` not yet matched by `stop()`. */
  private holds = 0;
  /** What `start()` returns until the last `stop()` (or a chunk that failed to load). */
  private running: Promise<void> | undefined;

  constructor(config: AuthClientConfig, environment: AuthClientEnvironment = {}) {
    let given: UserManager | undefined;
    [this.config, given] = clientConfig(config);
    this.environment = environment;
    let users: ReturnType<Users> | undefined;
    // Created on first use, so a client can be made during server rendering.
    this.users = () =>
      (users ??= createUserManager(
        this.config,
        environment,
        given,
        (user, previous) => this.withCore((core) => core.parts.checks.checkUser(user, previous)),
        () => this.core?.storedSession() ?? null,
      ));
    // The client is the token source of its own fetch, as of any `createAuthFetch(client, …)`.
    this.fetch = lazyAuthFetch(
      () => this.withCore(async () => {}),
      this,
      this.config.apiOrigins,
      environment.fetch,
    );
  }

  /** The current state; the same object until something changes. */
  getSnapshot = (): AuthSnapshot => this.authState.snapshot;

  /**
   * What the server rendered: `loading` (no client runs there). Hydration reads it, so a client
   * that knows the session already (started by a route loader) hydrates the server's HTML.
   */
  getServerSnapshot(): AuthSnapshot {
    return initialAuthSnapshot;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void = this.authState.subscribe;

  /**
   * Idle sign-out (`idle` in the config): where it stands (`warning` with the `deadline` before
   * the end), its subscription, and `stay()`, which keeps the session in every tab. Inert when
   * `idle` is off or nobody is signed in.
   */
  readonly idle: IdleControl = {
    getSnapshot: () => this.core?.idleClock?.snapshot ?? inactiveIdle,
    // One subscriber list for the client: each reader's snapshot says whether its part changed.
    subscribe: this.subscribe,
    stay: () => this.core?.idleClock?.stay(),
  };

  /** The `UserManager` this client drives (created on first use). */
  get userManager(): UserManager {
    return this.users().manager;
  }

  /**
   * Runs the client: processes a sign-in callback or a sign-out return in the URL, else reads the
   * stored user, else asks the other open tabs; then keeps the session renewed and in step with
   * the other tabs. Resolves once the session is known. Counted, as `QueryClient.mount()` is: each
   * `start()` is matched by one `stop()`, and the client runs while any is unmatched
   * (`AuthProvider` starts on mount and stops on unmount, so StrictMode's remount keeps it
   * running). Starting again after the last `stop()` restores the session anew.
   */
  start(): Promise<void> {
    // A disposed client stays stopped.
    if (this.authState.disposed) return Promise.resolve();
    this.holds += 1;
    return this.activate();
  }

  /**
   * Matches one `start()`. The last one stops timers, listeners and the tab channel at once; the
   * state stays as it is until the next `start()`. A `stop()` with no `start()` to match does
   * nothing.
   */
  stop(): void {
    if (this.holds === 0) return;
    this.holds -= 1;
    if (this.holds > 0) return;
    this.running = undefined;
    this.core?.deactivate();
  }

  /** The user's roles, read with the configured `roles` reader. */
  readRoles(user: User): string[] {
    try {
      const roles = this.config.roles(user);
      if (process.env.NODE_ENV !== 'production' && !Array.isArray(roles)) {
        warnRoleReader(this.config.roles, { gave: roles });
      }
      // A list only: anything else (no claim, a string, from a reader in JavaScript or with a
      // cast) has no flat() and gives no roles below, as a reader that throws does.
      return roles.flat();
    } catch (error) {
      if (process.env.NODE_ENV !== 'production')
        warnRoleReader(this.config.roles, { threw: error });
      return [];
    }
  }

  /**
   * Starts sign-in: redirects this page (default) or opens a popup. While one sign-in is under
   * way, another call joins it instead of starting a second one.
   */
  signIn(options: SignInOptions = {}): Promise<void> {
    return this.act((core) => core.parts.signIn.signIn(options));
  }

  /**
   * Signs out: clears the local session (in every tab) first, optionally revokes the tokens, then
   * ends the session at the provider (RP-initiated logout with `id_token_hint`, `client_id`,
   * `post_logout_redirect_uri` and `state`) and returns to `post_logout_redirect_uri`.
   */
  signOut(options: SignOutOptions = {}): Promise<void> {
    return this.act((core) => core.parts.signOut.signOut(options));
  }

  /** Renews the tokens now (refresh token, else silent iframe); one renewal at a time, across tabs. */
  renew(): Promise<User | null> {
    return this.withCore((core) => core.renewal.renew());
  }

  /**
   * A valid access token, renewed first when it expires within 5 seconds; null when signed out or
   * when that renewal fails (the snapshot's `error` says why). Asked while the client loads, it
   * waits for the session the page restores.
   */
  getAccessToken(): Promise<string | null> {
    return this.withCore((core) => core.renewal.getAccessToken());
  }

  /**
   * The headers that send the access token with a request the authenticated fetch does not make
   * (another HTTP client, a third-party SDK): `Authorization: Bearer …`, or with DPoP
   * `Authorization: DPoP …` and a `DPoP` proof for this `url` and `method` (and the server's
   * `nonce`, when it asked for one). Renews an expiring token first; null when signed out or when
   * that renewal fails.
   *
   * @example
   * const headers = await client.getAuthHeaders('https://api.example.com/orders', { method: 'POST' });
   */
  getAuthHeaders(
    url: string,
    options?: AuthHeadersOptions,
  ): Promise<Record<string, string> | null> {
    return this.withCore((core) => core.presenter.getAuthHeaders(url, options));
  }

  /** @internal Used by `createAuthFetch(client, …)` after a 401 (see `TokenSource`). */
  renewAfterUnauthorized(rejected: string, response?: Response): Promise<string | null> {
    return this.withCore((core) => core.presenter.renewAfterUnauthorized(rejected, response));
  }

  /** @internal Used by `createAuthFetch(client, …)`: Bearer, or DPoP with a proof (`TokenSource`). */
  sendWithToken(
    request: Request,
    token: string,
    send: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    return this.withCore((core) => core.presenter.sendWithToken(request, token, send));
  }

  /**
   * Processes the sign-in callback in `url` (default: the current address) once per URL, however
   * often it is called: later calls get the first call's promise.
   */
  handleCallback(url: string = globalThis.location.href): Promise<void> {
    return this.act((core) => core.parts.callback.handleCallback(url));
  }

  /** Forgets the last error: `error` goes to `unauthenticated`, other states keep their status. */
  dismissError(): void {
    this.authState.setError(null);
  }

  /** Stops the client for good, whatever `start()` calls are unmatched, and drops every listener. */
  dispose(): void {
    this.holds = 1;
    this.stop();
    this.authState.disposed = true;
    this.authState.listeners.clear();
  }

  /** Runs `run` with this client's engine (see `withEngine`), created the first time. */
  private withCore<T>(run: (core: SessionCore) => Promise<T>): Promise<T> {
    return withEngine(({ SessionCore }) => {
      if (this.core === undefined) {
        this.core = new SessionCore(this.config, this.environment, this.authState, this.users);
        // A start() whose load failed is still held: it runs now that the engine is here, whoever
        // loaded it. (Within that start itself, its run is the same: `activate` (`activate.ts`) returns
        // the activation under way.)
        if (this.holds > 0) void this.activate();
      }
      return run(this.core);
    });
  }

  /**
   * `withCore` for the calls that settle every failure in the state: what is left to catch is a
   * chunk of the engine that could not load (`loadEngine`). The state says so, as for any failure;
   * nothing else changed, and the next call tries again (a held start runs then, see `withCore`).
   */
  private act(run: (core: SessionCore) => Promise<void>): Promise<void> {
    return this.withCore(run).catch((error: unknown) => {
      if (!isAuthError(error)) throw error;
      this.running = undefined;
      this.authState.setError(error);
    });
  }

  /** Runs the engine for the held starts, unless it already runs (see `start`). */
  private activate(): Promise<void> {
    this.running ??= this.act((core) =>
      // The engine loaded after the matching stop(): nothing to run.
      this.holds === 0 ? Promise.resolve() : core.activate(),
    );
    return this.running;
  }
}

import { OidcClient } from 'oidc-client-ts';
import type { User, UserManager } from 'oidc-client-ts';
import { isCallback, isSignOutReturn } from './arrival';
import type { AuthSnapshot } from './authState';
import type { AuthClientEnvironment, AuthHeadersOptions } from './clientOptions';
import { browserStorage } from './browserStorage';
import type { CheckedUserStore } from './CheckedUserStore';
import type { StoredUser } from './CheckedUserStore';
import type { ResolvedAuthConfig } from './config';
import type { DPoP } from './DPoP';
import { authError } from './errors';
import type { AuthError } from './errors';
import { createParts } from './parts';
import type { Parts } from './parts';
import { Renewal } from './Renewal';
import { SessionRecords, tokenId } from './sessionRecord';
import type { StateStore } from './stateStore';
import type { IdleClock } from './IdleClock';
import { TabSession } from './TabSession';
import { withLock } from './tabSync';
import type { TabSync } from './tabSync';
import { WallClockTimer } from './wallClockTimer';

/** The user manager and its checked store, which the client creates (see `createUserManager`). */
export type Users = () => { manager: UserManager; store: CheckedUserStore };

/**
 * The engine: what its parts share (the user storage, the session record, the tab channel, this
 * tab's session id and epoch) and the parts themselves. `AuthClient` loads this module, and with it
 * every part, when it starts or is first asked to act (one chunk an app's bundler splits off); the
 * state it writes is the client's `StateStore`. Nothing outside the engine sees it.
 */
export class SessionCore {
  readonly renewal: Renewal;
  readonly tabSession: TabSession;
  readonly parts: Parts;

  /** The validated configuration, with defaults. */
  readonly config: ResolvedAuthConfig;

  readonly environment: AuthClientEnvironment;

  readonly authState: StateStore;

  readonly users: Users;

  /** Idle sign-out, once its chunk has loaded (only when `idle` is set). */
  idleClock: IdleClock | undefined;

  tabs: TabSync | undefined;

  sessionRecords: SessionRecords | undefined;

  /** Bumped whenever the session ends, so work begun for the old session cannot revive it. */
  epoch = 0;

  /** The id of the session this tab holds (see the session record), or null. */
  session: string | null = null;

  /** The id a sign-in under way will give its session; its user is stored under it. */
  incoming: string | null = null;

  /** True while a sign-in (callback or popup) may store another user than the stored one. */
  freshSignIn = false;

  readonly teardown: (() => void)[] = [];

  private dpopDecided: Promise<DPoP | null> | undefined;

  private dpopOn: Promise<DPoP> | undefined;

  /** Connected to the tabs and listening (between `activate()` and `deactivate()`). */
  active = false;

  /** The run the last `activate()` began (see there), and whether it has settled. */
  activation: Promise<void> | undefined;

  activationSettled = false;

  constructor(
    config: ResolvedAuthConfig,
    environment: AuthClientEnvironment,
    authState: StateStore,
    users: Users,
  ) {
    this.config = config;
    this.environment = environment;
    this.authState = authState;
    this.users = users;
    this.renewal = new Renewal(this);
    this.tabSession = new TabSession(this);
    this.parts = createParts(this);
  }

  get snapshot(): AuthSnapshot {
    return this.authState.snapshot;
  }

  /**
   * Deactivated (until the next `activate()`) or disposed: work under way must schedule nothing
   * more. A core never activated is not stopped (a client may act without `start()`).
   */
  get stopped(): boolean {
    return (!this.active && this.activation !== undefined) || this.authState.disposed;
  }

  /** Moves the state, which the client holds (see `StateStore.set`). */
  set: StateStore['set'] = (...change) => this.authState.set(...change);

  /** The `UserManager` this client drives. */
  get userManager(): UserManager {
    return this.users().manager;
  }

  /** Whether this tab's session has DPoP-bound tokens (`token_type` DPoP). */
  get bound(): boolean {
    return /^dpop$/i.test(this.snapshot.user?.token_type ?? '');
  }

  /**
   * DPoP for the next token request, or null: on for a session whose tokens are bound (whatever
   * the config or discovery say now); else as `dpop` says, `'auto'` and `true` asking the
   * provider's discovery once (`true` without DPoP there: `config_invalid`). A failure is thrown,
   * and the next call asks again.
   */
  dpop(): Promise<DPoP | null> {
    if (this.bound) return this.proofs();
    if (this.config.dpop === false) return Promise.resolve(null);
    this.dpopDecided ??= import('./DPoP')
      .then(({ DPoP }) => DPoP.missing(this))
      .then((missing) => {
        if (missing === null) return this.proofs();
        if (this.config.dpop === true) {
          throw authError(
            'config_invalid',
            process.env.NODE_ENV !== 'production' && [
              missing === 'provider'
                ? `oidc-kit config: \`dpop\` is true, but ${this.config.oidc.authority} does not advertise DPoP (ES256 in dpop_signing_alg_values_supported). Enable it at the provider, or use dpop: 'auto'.`
                : "oidc-kit config: `dpop` is true, but this browser has no IndexedDB to keep the key in (a private window?). Use dpop: 'auto' to go on without DPoP there.",
              'Nobody was signed in.',
            ],
            { field: 'dpop' },
          );
        }
        return null;
      })
      .catch((error: unknown) => {
        this.dpopDecided = undefined;
        throw error;
      });
    return this.dpopDecided;
  }

  /** DPoP's chunk, with oidc-client-ts's proofs on for every later token request. */
  private proofs(): Promise<DPoP> {
    this.dpopOn ??= import('./DPoP')
      .then(({ DPoP }) => DPoP.enable(this))
      .catch((error: unknown) => {
        this.dpopOn = undefined;
        throw error;
      });
    return this.dpopOn;
  }

  /**
   * The headers that carry `token` on a `method` request to `url`: `Bearer`, or for DPoP-bound
   * tokens `DPoP` with a proof for this request (with `nonce`, else the origin's latest).
   */
  async authHeaders(
    url: string,
    method: string,
    token: string,
    nonce?: string,
  ): Promise<Record<string, string>> {
    if (!this.bound) return { Authorization: `Bearer ${token}` };
    return this.proofHeaders(await this.proofs(), url, method, token, nonce);
  }

  /**
   * DPoP headers for a request with `token`. A bound session whose key pair is gone (site data
   * cleared) is over: ended everywhere, `session_expired`; nothing is sent without a proof.
   */
  private async proofHeaders(
    dpop: DPoP,
    url: string,
    method: string,
    token: string,
    nonce?: string,
  ): Promise<Record<string, string>> {
    const headers = await dpop.headers(url, method, token, nonce);
    if (headers !== null) return headers;
    const error = authError(
      'session_expired',
      process.env.NODE_ENV !== 'production' && [
        "This session's DPoP key is gone (site data cleared?): its tokens are useless.",
        'The session was ended in every tab.',
      ],
    );
    // A session that ended meanwhile (its key deleted with it) is not ended again.
    if (this.snapshot.user?.access_token === token) await this.endSession(error, true);
    throw error;
  }

  /** A valid access token, renewed first when it expires within 5 s; null when signed out. */
  getAccessToken(): Promise<string | null> {
    return this.renewal.getAccessToken();
  }

  /** `AuthClient.getAuthHeaders`: the token renewed if it expires, then its headers for `url`. */
  async getAuthHeaders(
    url: string,
    options: AuthHeadersOptions = {},
  ): Promise<Record<string, string> | null> {
    const token = await this.renewal.getAccessToken();
    if (token === null) return null;
    const target = new URL(url, globalThis.location?.href).href;
    return this.authHeaders(target, options.method ?? 'GET', token, options.nonce);
  }

  /**
   * The authenticated fetch's way to send `request` with `token` (see `TokenSource`). Whether
   * the token is bound is read once: a retry goes with a proof too, or not at all.
   */
  async sendWithToken(
    request: Request,
    token: string,
    send: (request: Request) => Promise<Response>,
  ): Promise<Response> {
    if (!this.bound) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return send(request);
    }
    const dpop = await this.proofs();
    return dpop.send(request, send, (sent) =>
      this.proofHeaders(dpop, sent.url, sent.method, token),
    );
  }

  /**
   * After a 401 from an API for `rejected`: a newer token (see `Renewal`), or null when the 401
   * asks for a DPoP nonce again, which is no fault of the token.
   */
  renewAfterUnauthorized(rejected: string, response?: Response): Promise<string | null> {
    return /\buse_dpop_nonce\b/.test(response?.headers.get('WWW-Authenticate') ?? '')
      ? Promise.resolve(null)
      : this.renewal.renewAfterUnauthorized(rejected);
  }

  /** Deletes the DPoP keys of the sessions `drop` names as over; nothing when DPoP is off. */
  async forgetKeys(drop: (session: string) => boolean): Promise<void> {
    if (this.config.dpop === false && !this.bound) return;
    // Best effort, and never for longer than a request may take: a key left behind binds tokens
    // no tab holds any more; a sign-out must not wait on a chunk or a stuck IndexedDB.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      import('./DPoP')
        .then(({ DPoP }) => DPoP.forgetKeys(this, drop))
        .catch(() => undefined)
        .finally(() => clearTimeout(timer)),
      new Promise((resolve) => (timer = setTimeout(resolve, this.config.timeout))),
    ]);
  }

  async bookSession(session: string, user: User): Promise<void> {
    const refresh = user.refresh_token === undefined ? null : await tokenId(user.refresh_token);
    // The floor of rule 5 spaces renewals; a new session has had none yet.
    this.records().write({ session, refresh, requested: 0 });
  }

  signedIn(user: User): void {
    this.set('authenticated', user, null);
    this.renewal.scheduleRenewal(user);
  }

  /**
   * Lets go of this tab's session: the epoch moves on (work begun for it cannot revive it), renewal
   * stops, and the session id is dropped. Returns that id. The stored user is the caller's to clear.
   */
  leave(): string | null {
    const ended = this.session;
    this.epoch += 1;
    this.renewal.stopRenewing();
    this.session = null;
    return ended;
  }

  /** Ends the session here, and in every tab when `everywhere` (no tab can renew it). */
  async endSession(error: AuthError, everywhere: boolean): Promise<void> {
    const ended = this.leave();
    await this.clearUser();
    if (everywhere) await this.forgetKeys((session) => session === ended);
    if (everywhere && ended !== null) {
      this.records().remove(ended);
      this.tabs?.post({ type: 'signed-out', session: ended, reason: 'session_expired' });
    }
    this.set('unauthenticated', null, error, 'expired');
  }

  oidcClient(): OidcClient {
    return new OidcClient(this.userManager.settings, this.userManager.metadataService);
  }

  async clearUser(): Promise<void> {
    await this.userStore()
      .remove(this.userKey())
      .catch(() => undefined);
  }

  readStored(): Promise<StoredUser | null> {
    return this.userStore().read(this.userKey());
  }

  userStore(): CheckedUserStore {
    return this.users().store;
  }

  userKey(): string {
    const { authority, client_id } = this.userManager.settings;
    return `user:${authority}:${client_id}`;
  }

  records(): SessionRecords {
    this.sessionRecords ??= new SessionRecords(
      this.storageKey('session'),
      this.environment.sharedStorage === undefined
        ? browserStorage('localStorage')
        : this.environment.sharedStorage,
    );
    return this.sessionRecords;
  }

  /** This client's name for a `kind` of shared record or lock, apart from other clients'. */
  storageKey(kind: 'session' | 'renew' | 'idle' | 'dpop'): string {
    const { authority, client_id } = this.config.oidc;
    return `oidc-kit:${kind}:${authority}:${client_id}`;
  }

  /** Runs `task` holding this client's `kind` lock, across tabs (see `withLock`). */
  withNamedLock<T>(kind: 'renew' | 'idle', task: () => Promise<T>): Promise<T> {
    return withLock(this.storageKey(kind), task, this.environment.locks);
  }

  /** Shows `path` of this app, as the environment says (default: replace the address). */
  navigate(path: string): void {
    if (this.environment.navigate !== undefined) {
      this.environment.navigate(path);
    } else {
      history.replaceState(history.state, '', path);
      // Routers that listen to the history (React Router among them) pick the new location up.
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    }
  }

  origin(): string {
    return globalThis.location.origin;
  }

  /** What the address the app loaded on is (see `arrival.ts`). */
  arrivalAt(url: string): 'callback' | 'sign-out-return' | null {
    if (isCallback(this, url)) return 'callback';
    return isSignOutReturn(this, url) ? 'sign-out-return' : null;
  }

  /** Which user the store is writing: the incoming session's during a sign-in, else this tab's. */
  storedSession(): string | null {
    return this.freshSignIn ? this.incoming : this.session;
  }

  /**
   * Runs the engine: connects to the other tabs and listens to the page, then restores the
   * session. The first time, `arrive` handles the address the app loaded on (a callback, a
   * sign-out return, or a restore); after a `deactivate()` the session is restored anew (it may
   * have changed meanwhile). A call while the run is under way (StrictMode's remount) joins it.
   */
  activate(arrive: () => Promise<void>): Promise<void> {
    if (!this.active) {
      this.active = true;
      this.tabSession.connect();
      const idle = this.config.idle;
      // Its own chunk: an app without `idle` never loads it.
      if (idle !== null) {
        void import('./IdleClock').then(({ IdleClock }) => {
          if (!this.active) return;
          this.idleClock ??= new IdleClock(this, idle, new WallClockTimer(1_000));
          this.idleClock.start();
        });
      }
    }
    if (this.activation === undefined || this.activationSettled) {
      this.activationSettled = false;
      const run = this.activation === undefined ? arrive() : this.tabSession.restore();
      this.activation = run.finally(() => {
        this.activationSettled = true;
      });
    }
    return this.activation;
  }

  /** Stops timers, listeners and the tab channel, at once; the state stays as it is. */
  deactivate(): void {
    this.active = false;
    this.idleClock?.stop();
    this.renewal.stopRenewing();
    this.parts.signIn.stopWatching();
    for (const undo of this.teardown.splice(0)) undo();
    this.tabs?.close();
    this.tabs = undefined;
  }
}

import { OidcClient } from 'oidc-client-ts';
import type { User, UserManager } from 'oidc-client-ts';
import { canTransition, createAuthSnapshot, initialAuthSnapshot } from './authState';
import type { AuthSnapshot, AuthStatus, SignOutReason } from './authState';
import type { AuthClientEnvironment } from './AuthClient';
import { browserStorage } from './browserStorage';
import { Callback } from './Callback';
import { createUserManager } from './createUserManager';
import type { CheckedUserStore } from './CheckedUserStore';
import type { StoredUser } from './CheckedUserStore';
import type { ResolvedAuthConfig } from './config';
import type { AuthError } from './errors';
import { RefreshGuard } from './refreshGuard';
import { Renewal } from './Renewal';
import { SessionRecords, tokenId } from './sessionRecord';
import { receiveUser, shareSession } from './sharedSession';
import type { SharedSession } from './sharedSession';
import { SignIn } from './SignIn';
import { SignOut } from './SignOut';
import { TabSession } from './TabSession';
import { withLock } from './tabSync';
import type { TabSync } from './tabSync';
import { UserChecks } from './UserChecks';

type Listener = () => void;

/**
 * What the engine's parts share: the state store, the user storage, the session record, the tab
 * channel, and this tab's session id and epoch. `AuthClient` creates one and delegates to the parts
 * it wires here; nothing outside the engine sees it.
 */
export class SessionCore {
  readonly checks: UserChecks;
  readonly renewal: Renewal;
  readonly tabSession: TabSession;
  readonly signInFlow: SignIn;
  readonly callbackFlow: Callback;
  readonly signOutFlow: SignOut;

  /** The validated configuration, with defaults. */
  readonly config: ResolvedAuthConfig;

  snapshot: AuthSnapshot = initialAuthSnapshot;

  readonly listeners = new Set<Listener>();

  readonly environment: AuthClientEnvironment;

  readonly givenUserManager: UserManager | undefined;

  manager: UserManager | undefined;

  store: CheckedUserStore | undefined;

  tabs: TabSync | undefined;

  sessionRecords: SessionRecords | undefined;

  guard: RefreshGuard | undefined;

  /** Bumped whenever the session ends, so work begun for the old session cannot revive it. */
  epoch = 0;

  /** The id of the session this tab holds (see the session record), or null. */
  session: string | null = null;

  /** The id a sign-in under way will give its session; its user is stored under it. */
  incoming: string | null = null;

  /** True while a sign-in (callback or popup) may store another user than the stored one. */
  freshSignIn = false;

  disposed = false;

  readonly teardown: (() => void)[] = [];

  constructor(
    config: ResolvedAuthConfig,
    environment: AuthClientEnvironment,
    givenUserManager: UserManager | undefined,
  ) {
    this.config = config;
    this.environment = environment;
    this.givenUserManager = givenUserManager;
    this.checks = new UserChecks(this);
    this.renewal = new Renewal(this);
    this.tabSession = new TabSession(this);
    this.signInFlow = new SignIn(this);
    this.callbackFlow = new Callback(this);
    this.signOutFlow = new SignOut(this);
  }
  /** The `UserManager` this client drives (created on first use). */
  get userManager(): UserManager {
    if (this.manager === undefined) this.manager = this.createUserManager();
    return this.manager;
  }

  /**
   * Takes a session another tab shared, when it is the session the record names and its ID token
   * passes the checks (signature included when verification is on). Returns the user, or null.
   */
  async adopt(shared: SharedSession): Promise<User | null> {
    const epoch = this.epoch;
    try {
      if (this.records().read()?.session !== shared.id) return null;
      const keepRefreshToken = this.config.storage !== 'memory';
      const idToken = (JSON.parse(shared.user) as { id_token?: unknown }).id_token;
      if (typeof idToken !== 'string') return null;
      const claims = await this.checks.checkIdTokenOf(idToken, false);
      const user = receiveUser(shared.user, claims, keepRefreshToken);
      if (this.epoch !== epoch || this.records().read()?.session !== shared.id) return null;
      this.session = shared.id;
      await this.userStore().setTrusted(this.userKey(), user.toStorageString(), shared.id);
      return user;
    } catch {
      return null;
    }
  }

  share(user: User): SharedSession {
    return shareSession(this.session as string, user, this.config.storage !== 'memory');
  }

  async bookSession(session: string, user: User): Promise<void> {
    const refresh = user.refresh_token === undefined ? null : await tokenId(user.refresh_token);
    // The floor of rule 5 spaces renewals; a new session has had none yet.
    this.records().write({ session, refresh, requested: 0 });
  }

  signedIn(user: User, announce?: 'signed-in' | 'renewed'): void {
    this.set('authenticated', user, null);
    this.renewal.scheduleRenewal(user);
    if (announce !== undefined && this.session !== null) {
      this.tabs?.post({ type: announce, session: this.share(user) });
    }
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
    if (everywhere && ended !== null) {
      this.records().remove(ended);
      this.tabs?.post({ type: 'signed-out', session: ended, reason: 'session_expired' });
    }
    this.set('unauthenticated', null, error, 'expired');
  }

  set(
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
    void this.userManager;
    return this.store as CheckedUserStore;
  }

  userKey(): string {
    const { authority, client_id } = this.userManager.settings;
    return `user:${authority}:${client_id}`;
  }

  records(): SessionRecords {
    const { authority, client_id } = this.config.oidc;
    this.sessionRecords ??= new SessionRecords(
      `oidc-kit:session:${authority}:${client_id}`,
      this.environment.sharedStorage === undefined
        ? browserStorage('localStorage')
        : this.environment.sharedStorage,
    );
    return this.sessionRecords;
  }

  refreshGuard(): RefreshGuard {
    this.guard ??= new RefreshGuard(this.records());
    return this.guard;
  }

  withRenewLock<T>(task: () => Promise<T>): Promise<T> {
    const { authority, client_id } = this.config.oidc;
    return withLock(
      `oidc-kit:renew:${authority}:${client_id}`,
      task,
      this.environment.locks === undefined ? undefined : this.environment.locks,
    );
  }

  createUserManager(): UserManager {
    const created = createUserManager(
      this.config,
      this.environment,
      this.givenUserManager,
      (user, previous) => this.checks.checkUser(user, previous),
      () => (this.freshSignIn ? this.incoming : this.session),
    );
    this.store = created.store;
    return created.manager;
  }

  currentPath(): string {
    const { pathname, search, hash } = globalThis.location;
    return `${pathname}${search}${hash}`;
  }

  origin(): string {
    return globalThis.location.origin;
  }

  /** Stops timers, listeners and the tab channel. */
  dispose(): void {
    this.disposed = true;
    this.renewal.stopRenewing();
    this.signInFlow.stopWatching();
    for (const undo of this.teardown.splice(0)) undo();
    this.tabs?.close();
    this.listeners.clear();
  }
}

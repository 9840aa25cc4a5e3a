import { OidcClient } from 'oidc-client-ts';
import type { User, UserManager } from 'oidc-client-ts';
import { activate, deactivate } from './activate';
import type { AuthSnapshot } from './authState';
import type { AuthClientEnvironment } from './clientOptions';
import { browserStorage } from './browserStorage';
import type { CheckedUserStore } from './CheckedUserStore';
import type { ResolvedAuthConfig } from './configTypes';
import { isAuthError } from './errors';
import type { AuthError } from './errors';
import { createParts } from './parts';
import { dropEmptyTokenFields } from './dropEmptyTokenFields';
import { checkEndpoints } from './checkEndpoints';
import type { Parts } from './parts';
import { Renewal } from './Renewal';
import { sessionRecords, tokenId } from './sessionRecord';
import type { SessionRecords } from './sessionRecord';
import type { StateStore } from './stateStore';
import type { IdleClock } from './IdleClock';
import { TabSession } from './TabSession';
import { TokenPresenter } from './TokenPresenter';
import { tabSync, withLock } from './tabSync';
import { knownExpiry } from './knownExpiry';
import { PublishedUsers } from './PublishedUsers';
import { RefreshTokenHold } from './RefreshTokenHold';
import type { TabMessage, TabSync } from './tabSync';
import { UserStorage } from './UserStorage';

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
  readonly presenter: TokenPresenter;

  /** The validated configuration, with defaults. */
  readonly authConfig: ResolvedAuthConfig;
  readonly environment: AuthClientEnvironment;
  readonly authState: StateStore;
  readonly users: Users;

  /** The users the app reads, and the refresh tokens memory storage holds back from them. */
  readonly published: PublishedUsers;

  /** The user this client keeps, with its session id. */
  readonly userStorage: UserStorage;

  /** Idle sign-out, once its chunk has loaded (only when `idle` is set). */
  idleClock: IdleClock | undefined;
  /** Its chunk loading, for a restore to wait on (undefined if it failed: tried again on start). */
  idleLoading: Promise<IdleClock | undefined> | undefined;

  tabs: TabSync | undefined;
  sessionRecords: SessionRecords | undefined;

  /** Bumped whenever the session ends, so work begun for the old session cannot revive it. */
  epoch = 0;

  /** The id of the session this tab holds (see the session record), or null. */
  session: string | null = null;

  /** Sign-ins this tab has begun storing (see `SessionSharing.adopt`). */
  signIns = 0;

  /** The id a sign-in under way will give its session; its user is stored under it. */
  incoming: string | null = null;

  /** True while a sign-in (callback or popup) may store another user than the stored one. */
  freshSignIn = false;

  /**
   * The user a refresh under way renews: its answer is checked against this user, not the stored
   * one (another tab's sign-in may have stored its own meanwhile, with `storage: 'local'`).
   */
  refreshing: User | null = null;

  /** With memory storage, the lock that says this tab holds its session's refresh token. */
  readonly refreshHold = new RefreshTokenHold(this);

  /** What `deactivate()` undoes: the listeners `activate()` added. */
  readonly teardown: (() => void)[] = [];

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
    this.authConfig = config;
    this.environment = environment;
    this.authState = authState;
    this.users = users;
    this.published = new PublishedUsers(config.storage === 'memory');
    this.userStorage = new UserStorage(users);
    this.renewal = new Renewal(this);
    this.tabSession = new TabSession(this);
    this.parts = createParts(this);
    this.presenter = new TokenPresenter(this);
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

  /** Moves the state, which the client holds (see `StateStore.set`), with the user published. */
  set: StateStore['set'] = (status, user, error, signOutReason) => {
    // A wrong setting found at run time (the issuer, the discovery document, DPoP) is logged in
    // every build, as the constructor's are: no user can fix it, and the page says little.
    if (isAuthError(error, 'config_invalid') && error !== this.snapshot.error) console.error(error);
    this.authState.set(status, user && this.published.publish(user), error, signOutReason);
    this.refreshHold.followSession();
  };

  /**
   * The `UserManager` this client drives, reading token responses as `dropEmptyTokenFields` says
   * and its discovery document as `checkEndpoints` does.
   */
  get manager(): UserManager {
    return checkEndpoints(dropEmptyTokenFields(this.users().manager));
  }

  /** `requested`: when the session's last token request left (0: unknown, none to wait for). */
  async bookSession(session: string, user: User, requested = 0): Promise<void> {
    const token = this.published.refreshTokenOf(user);
    const refresh = token === undefined ? null : await tokenId(token);
    this.records().write({ session, refresh, requested });
  }

  signedIn(user: User): void {
    knownExpiry(user);
    this.set('authenticated', user, null);
    // Fresh tokens (renewed here or elsewhere, a new session): the bounded retries start over.
    this.renewal.renewRetries = 0;
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
    this.refreshHold.followSession();
    return ended;
  }

  /** Ends the session here, and in every tab when `everywhere` (no tab can renew it). */
  async endSession(error: AuthError, everywhere: boolean): Promise<void> {
    const ended = this.leave();
    await this.userStorage.clearUser();
    if (everywhere) await this.presenter.forgetKeys((session) => session === ended);
    if (everywhere && ended !== null) {
      // Before the record goes: a tab that hears no message (asleep) reads why from this mark.
      this.sharedMark('expired', ended);
      this.records().remove(ended);
      this.tell({ type: 'signed-out', session: ended, reason: 'session_expired' });
    }
    this.set('unauthenticated', null, error, 'expired');
  }

  /**
   * Tells the other tabs, on this tab's channel; stopped (disposed, unmounted) while its work went
   * on, on one opened for the message: the others hear it as they would have.
   */
  tell(message: TabMessage): void {
    if (this.tabs !== undefined) return this.tabs.post(message);
    const once = tabSync(this.channelName(), () => undefined, this.environment.createChannel);
    once.post(message);
    once.close();
  }

  channelName(): string {
    const { authority, client_id } = this.authConfig.oidc;
    return `oidc-kit:${authority}:${client_id}`;
  }

  oidcClient(): OidcClient {
    return new OidcClient(this.manager.settings, this.manager.metadataService);
  }

  records(): SessionRecords {
    this.sessionRecords ??= sessionRecords(
      this.storageKey('session'),
      this.environment.sharedStorage === undefined
        ? browserStorage('localStorage')
        : this.environment.sharedStorage,
    );
    return this.sessionRecords;
  }

  /**
   * The id of the last session that expired (`session`: marks it), in the shared storage; best
   * effort, as the mark only says why a session ended.
   */
  sharedMark(kind: 'expired', session?: string): string | null {
    const storage = this.records().storage;
    const key = this.storageKey(kind);
    try {
      if (session === undefined) return storage?.getItem(key) ?? null;
      storage?.setItem(key, session);
      return session;
    } catch {
      return null;
    }
  }

  /** This client's name for a `kind` of record, mark or lock, apart from other clients'. */
  storageKey(
    kind:
      'session' | 'renew' | 'refresh' | 'idle' | 'dpop' | 'expired' | 'signed-out' | 'signing-in',
  ): string {
    const { authority, client_id } = this.authConfig.oidc;
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

  /** Which user the store is writing: the incoming session's during a sign-in, else this tab's. */
  storedSession(): string | null {
    return this.freshSignIn ? this.incoming : this.session;
  }

  /** Runs the engine (see `activate.ts`); resolves once the session is known. */
  activate(): Promise<void> {
    return activate(this);
  }

  /** Stops the engine's timers, listeners and tab channel at once (see `activate.ts`). */
  deactivate(): void {
    deactivate(this);
  }
}

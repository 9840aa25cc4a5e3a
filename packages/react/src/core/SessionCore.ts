import { OidcClient } from 'oidc-client-ts';
import type { User, UserManager } from 'oidc-client-ts';
import { canTransition, createAuthSnapshot, initialAuthSnapshot } from './authState';
import type { AuthSnapshot, AuthStatus, SignOutReason } from './authState';
import type { AuthClientEnvironment } from './AuthClient';
import { browserStorage } from './browserStorage';
import { createUserManager } from './createUserManager';
import type { CheckedUserStore } from './CheckedUserStore';
import type { StoredUser } from './CheckedUserStore';
import type { ResolvedAuthConfig } from './config';
import { authError } from './errors';
import type { AuthError } from './errors';
import type * as LazyPartsModule from './lazyParts';
import type { LazyParts } from './lazyParts';
import { Renewal } from './Renewal';
import { SessionRecords, tokenId } from './sessionRecord';
import { TabSession } from './TabSession';
import { withLock } from './tabSync';
import type { TabSync } from './tabSync';

type Listener = () => void;

let lazyModule: typeof LazyPartsModule | undefined;
let lazyLoading: Promise<unknown> | undefined;

/**
 * Loads the engine's lazy parts (see `lazyParts.ts`), once for every client; a failed load is
 * retried by the next call. Apps need not call it: the engine loads them on first use and once it
 * has started.
 */
export function loadLazyParts(): Promise<unknown> {
  lazyLoading ??= import('./lazyParts').then(
    (loaded) => {
      lazyModule = loaded;
    },
    (cause: unknown) => {
      lazyLoading = undefined;
      throw authError(
        'network',
        process.env.NODE_ENV !== 'production' && [
          'oidc-kit could not load a chunk of its own code (offline, or the app was redeployed meanwhile).',
          'Nothing was sent to the identity provider; the session is unchanged. Try again, or reload the page.',
        ],
        { cause },
      );
    },
  );
  return lazyLoading;
}

/**
 * What the engine's parts share: the state store, the user storage, the session record, the tab
 * channel, and this tab's session id and epoch. `AuthClient` creates one and delegates to the parts
 * it wires here; nothing outside the engine sees it.
 */
export class SessionCore {
  readonly renewal: Renewal;
  readonly tabSession: TabSession;

  /** The lazy parts, once their module is loaded and this core has used them. */
  parts: LazyParts | undefined;

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
    this.renewal = new Renewal(this);
    this.tabSession = new TabSession(this);
  }

  /**
   * Runs `run` with the lazy parts: at once when their module is loaded (so a call starts in the
   * same tick as it always did), else once it is.
   */
  withParts<T>(run: (parts: LazyParts) => Promise<T>): Promise<T> {
    const parts = this.loadedParts();
    if (parts !== undefined) return run(parts);
    return loadLazyParts().then(() => run(this.lazy()));
  }

  /** The lazy parts, for code that runs only once they are loaded (the lazy parts themselves). */
  lazy(): LazyParts {
    return this.loadedParts() as LazyParts;
  }

  loadedParts(): LazyParts | undefined {
    if (this.parts === undefined && lazyModule !== undefined) {
      this.parts = lazyModule.createLazyParts(this);
    }
    return this.parts;
  }

  /** The `UserManager` this client drives (created on first use). */
  get userManager(): UserManager {
    if (this.manager === undefined) this.manager = this.createUserManager();
    return this.manager;
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
    // Checked in development only: the table is no use to a production build.
    if (process.env.NODE_ENV !== 'production' && from !== status && !canTransition(from, status)) {
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
      (user, previous) => this.withParts((parts) => parts.checks.checkUser(user, previous)),
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
    this.parts?.signIn.stopWatching();
    for (const undo of this.teardown.splice(0)) undo();
    this.tabs?.close();
    this.listeners.clear();
  }
}

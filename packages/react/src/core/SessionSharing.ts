import { User } from 'oidc-client-ts';
import type { SessionCore } from './SessionCore';
import type { SessionRecord } from './sessionRecord';
import { receiveUser, shareSession } from './sharedSession';
import type { SharedSession } from './sharedSession';
import { signedOutElsewhere } from './TabSession';
import type { TabMessage } from './tabSync';

/**
 * The session between tabs: sharing this tab's with the tabs that ask, announcing sign-ins and
 * renewals, adopting another tab's once its ID token passes the checks, taking tokens from the tab
 * that holds the refresh token, and ending with a session that ended elsewhere (rules 2 to 4).
 */
export class SessionSharing {
  constructor(private readonly core: SessionCore) {}

  /** The session this tab last saw end by its record alone, and its user (see `signed-out`). */
  ended: { session: string; user: User } | undefined;

  /** The session this tab ended when it could not renew it, and the tokens it could not renew. */
  unrenewable: { session: string; user: User } | undefined;

  /**
   * Takes a session another tab shared, when it is the session the record names and its ID token
   * passes the checks (signature included when verification is on). Returns the user, or null.
   */
  async adopt(shared: SharedSession): Promise<User | null> {
    const epoch = this.core.epoch;
    try {
      if (this.core.records().read()?.session !== shared.id) return null;
      const keepRefreshToken = this.core.authConfig.storage !== 'memory';
      const idToken = (JSON.parse(shared.user) as { id_token?: unknown }).id_token;
      if (typeof idToken !== 'string') return null;
      const claims = await this.core.parts.checks.checkIdTokenOf(idToken, false);
      const user = receiveUser(shared.user, claims, keepRefreshToken);
      // What this tab could not renew comes back only renewed, by the tab that may still renew it.
      if (this.notNewer(shared.id, user)) return null;
      // As a provider's renewal must (rule 3): the session keeps its user, with a token to present.
      const current = this.core.snapshot.user;
      if (shared.id === this.core.session && current?.profile.sub !== claims.sub) return null;
      this.core.parts.checks.checkAccessToken(
        user,
        current,
        this.core.authConfig.dpop !== false,
        false,
      );
      const signIns = this.core.signIns;
      return await this.core.userStorage.storeInTurn(async () => {
        // Signed out meanwhile, or signing out now (a remount's restore asks the tabs meanwhile),
        // or a newer sign-in stored (its record names it).
        if (
          this.core.epoch !== epoch ||
          this.core.snapshot.status === 'signing-out' ||
          this.core.records().read()?.session !== shared.id
        )
          return null;
        this.core.session = shared.id;
        await this.core.userStorage.storeUser(user, shared.id);
        // A sign-in here began meanwhile: its user, stored next, is the one the tab keeps.
        if (this.core.epoch === epoch && this.core.signIns === signIns) return user;
        // Signed out while the user was being stored (an asynchronous store): it goes again.
        if (this.core.session === null) await this.core.userStorage.clearUser();
        return null;
      });
    } catch {
      return null;
    }
  }

  /**
   * Whether `user` holds the tokens of a session this tab could not renew, or older ones (expiring
   * sooner). Renewed ones may expire at the same time: a provider caps them at its session's end.
   */
  notNewer(session: string, user: User): boolean {
    const ended = this.unrenewable;
    if (ended?.session !== session) return false;
    const { access_token, expires_at } = ended.user;
    return (
      user.access_token === access_token ||
      (user.expires_at !== undefined && expires_at !== undefined && user.expires_at < expires_at)
    );
  }

  /**
   * With memory storage, a renewal in a tab without the refresh token: the tab that holds it
   * renews and answers (a `renew-request`). Null when none is open or none answers.
   */
  async renewThroughOtherTab(before: User, epoch: number): Promise<User | null> {
    if (
      this.core.published.refreshTokenOf(before) !== undefined ||
      this.core.authConfig.storage !== 'memory' ||
      !(await this.holderOpen())
    )
      return null;
    const shared = await this.core.tabs?.request(
      'renew-request',
      this.core.authConfig.timeout + 1000,
      (session) => session.id === this.core.session,
    );
    if (shared == null || this.core.epoch !== epoch) return null;
    const user = await this.adopt(shared);
    if (user === null || user.access_token === before.access_token) return null;
    this.core.signedIn(user);
    return user;
  }

  /**
   * With memory storage, whether a tab that holds this session's refresh token may answer: none
   * does once the one that held it closed or went into the back-forward cache (see
   * `RefreshTokenHold`), and then no answer is waited for.
   */
  async holderOpen(): Promise<boolean> {
    const session = this.core.session;
    return session !== null && (await this.core.refreshHold.heldElsewhere(session));
  }

  /** The session's current tokens from the tab that holds them, or null (no answer, or stale). */
  async currentFromOtherTab(record: SessionRecord, before: User): Promise<User | null> {
    const keepsRefreshToken = this.core.authConfig.storage !== 'memory';
    // With memory storage, the current tokens are the holder's, which the other tabs had from it.
    if (!keepsRefreshToken && !(await this.holderOpen())) return null;
    const shared = await this.core.tabs?.request(
      'session-request',
      2000,
      (session) => session.id === record.session,
    );
    if (shared == null) return null;
    // An answer from a tab as stale as this one would make this tab authorize silently for nothing.
    const offered = User.fromStorageString(shared.user);
    if (
      keepsRefreshToken &&
      !(await this.core.parts.guard.isCurrent(record, this.core.published.refreshTokenOf(offered)))
    ) {
      return null;
    }
    if (offered.access_token === before.access_token) return null;
    return this.adopt(shared);
  }

  share(user: User): SharedSession {
    return shareSession(
      this.core.session as string,
      user,
      this.core.authConfig.storage !== 'memory',
    );
  }

  /** Tells the other tabs of a sign-in or a renewal here, with the session to adopt. */
  announce(type: 'signed-in' | 'renewed', user: User): void {
    if (this.core.session !== null) this.core.tabs?.post({ type, session: this.share(user) });
  }

  /** Hands this tab's session to the tab `to`, when this tab holds one. */
  answer(to: string, user: User | null): void {
    if (user !== null && this.core.session !== null) {
      this.core.tabs?.post({ type: 'session', to, session: this.share(user) });
    }
  }

  async onTabMessage(message: TabMessage): Promise<void> {
    if (this.core.stopped) return;
    const user = this.core.snapshot.user;
    switch (message.type) {
      case 'session-request':
        this.answer(message.from, user);
        return;
      case 'renew-request': {
        if (
          user === null ||
          this.core.published.refreshTokenOf(user) === undefined ||
          this.core.session === null
        )
          return;
        const renewed =
          (await this.core.renewal.renew().catch(() => null)) ?? this.core.snapshot.user;
        this.answer(message.from, renewed);
        return;
      }
      case 'signed-in':
      case 'renewed': {
        // A sign-in's message may come before its record, written in another tab's process:
        // the record is waited for, so that the sign-in is not missed.
        if (message.type === 'signed-in') {
          await this.core.records().until(message.session.id, this.core.authConfig.timeout);
          if (this.core.stopped) return;
        }
        // A renewal belongs to a session this tab has; a tab without one waits for a sign-in.
        if (
          message.type === 'renewed' &&
          (user === null || message.session.id !== this.core.session)
        )
          return;
        const shared = await this.adopt(message.session);
        if (shared !== null) this.core.signedIn(shared);
        return;
      }
      case 'signed-out': {
        const ended = this.ended;
        if (message.session !== this.core.session) {
          // Its record went first (a storage event), and this tab ended it then: the revocation
          // the message asks for is still this tab's (with memory storage, only it holds the token).
          if (message.revoke === true && ended?.session === message.session) {
            this.ended = undefined;
            await this.core.parts.signOut.revoke(ended.user);
          }
          // Another session ended: maybe the newer one that replaced this tab's, before this tab
          // took it. The record says (its storage event may be late, or lost).
          this.core.tabSession.recheck();
          return;
        }
        // Whatever this tab is doing (a step-up under way too), the session it holds is over.
        this.core.leave();
        await this.core.userStorage.clearUser();
        if (message.reason === 'idle') {
          // Every tab signs out for inactivity: the signed-out page says so, no error.
          this.core.set('unauthenticated', null, null, 'idle');
        } else {
          this.core.set(
            'unauthenticated',
            null,
            signedOutElsewhere(message.reason),
            message.reason === 'session_expired' ? 'expired' : 'elsewhere',
          );
        }
        // Best effort, once the session is gone here, as in the tab that signed out.
        if (message.revoke === true && user !== null) await this.core.parts.signOut.revoke(user);
        return;
      }
      case 'idle':
        this.core.idleClock?.onIdleMessage(message);
        return;
      default:
        return;
    }
  }
}

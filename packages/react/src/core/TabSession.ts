import type { User } from 'oidc-client-ts';
import { tabMark } from './arrival';
import { assertIssuer } from './assertIssuer';
import type { StoredUser } from './storedUser';
import { authError, isAuthError } from './errors';
import type { AuthError } from './errors';
import type { SessionRecord } from './sessionRecord';
import { tabSync } from './tabSync';
import type { SessionCore } from './SessionCore';

/**
 * The session across tabs: restoring it on load and re-checking the shared record when the page
 * wakes (rules 2, 7 and 8). Answering and adopting other tabs' sessions is `SessionSharing`'s.
 */
export class TabSession {
  constructor(private readonly core: SessionCore) {}

  connect(): void {
    this.core.tabs = tabSync(
      this.core.channelName(),
      (message) => void this.core.parts.sharing.onTabMessage(message),
      this.core.environment.createChannel,
    );
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      // A page restored from the back-forward cache must not stay mid-redirect, nor show a
      // session that ended while it was away; the redirect it left on (never completed) holds
      // no later sign-in or sign-out, and its watch is dropped.
      const { status } = this.core.snapshot;
      this.core.parts.signIn.redirecting?.letGo();
      this.core.parts.signIn.stopWatching();
      this.core.parts.signIn.signingIn = undefined;
      this.core.parts.signOut.signingOut = undefined;
      if (status === 'signing-out') {
        // Signed out here before it left: the page reads why, as the signed-out page would (a guard
        // that took it for a visitor never signed in would send it straight back to sign in).
        const marks = tabMark(this.core, 'signed-out');
        const reason = marks.read() === 'idle' ? 'idle' : 'user';
        marks.remove();
        this.core.set('unauthenticated', null, null, reason);
      }
      if (status === 'signing-in') void this.restore();
      // The record may have changed unheard (no message nor storage event reaches a cached page).
      this.recheck(true);
      this.core.refreshHold.inBackForwardCache = false;
      this.core.refreshHold.followSession();
    };
    // A page that keeps a lock is not kept in the back-forward cache (with memory storage, a lone
    // tab's session would be gone on Back); a frozen page answers no tab anyway.
    const onPageHide = (event: PageTransitionEvent) => {
      this.core.refreshHold.inBackForwardCache = event.persisted;
      this.core.refreshHold.followSession();
    };
    const onVisible = () => {
      if ((globalThis as { document?: Document }).document?.visibilityState === 'hidden') return;
      this.recheck();
      this.core.renewal.renewTimer.check();
    };
    globalThis.addEventListener('pageshow', onPageShow);
    globalThis.addEventListener('pagehide', onPageHide);
    globalThis.addEventListener('visibilitychange', onVisible);
    const unwatch = this.core.records().watch(() => this.recheck(true));
    this.core.teardown.push(
      () => globalThis.removeEventListener('pageshow', onPageShow),
      () => globalThis.removeEventListener('pagehide', onPageHide),
      () => globalThis.removeEventListener('visibilitychange', onVisible),
      unwatch,
    );
  }

  /**
   * A tab that was away (frozen, in the back-forward cache, its messages missed) checks the shared
   * record: a session that ended meanwhile is cleared before anything of it shows again. When
   * another tab changed the record (`recordChanged`), a signed-out tab asks for its session.
   */
  recheck(recordChanged = false): void {
    const { status } = this.core.snapshot;
    if (this.core.stopped) return;
    const record = this.core.records().read();
    if (status === 'unauthenticated' || (status === 'error' && this.core.snapshot.user === null)) {
      // Another tab wrote a session's record, maybe after this tab settled signed out or failed to
      // sign in (a write from another process may come late): ask for the session, as on load.
      if (recordChanged && record !== null) void this.restore(true);
      return;
    }
    if (status !== 'authenticated') return;
    if (record !== null && record.session === this.core.session) return;
    const user = this.core.snapshot.user;
    const ended = this.core.leave();
    if (record === null) {
      if (ended !== null && user !== null) this.core.parts.sharing.ended = { session: ended, user };
      // The record may go before the message that says why: an idle sign-out marks the idle
      // record first, and an expiry its own mark, in the same storage, so the mark is here by now.
      const idle = ended !== null && this.core.idleClock?.endedFor(ended) === true;
      const expired = ended !== null && this.core.sharedMark('expired') === ended;
      this.core.set(
        'unauthenticated',
        null,
        idle ? null : signedOutElsewhere(expired ? 'session_expired' : 'signed_out_elsewhere'),
        idle ? 'idle' : expired ? 'expired' : 'elsewhere',
      );
      void this.core.userStorage.clearUser();
      return;
    }
    // Replaced by a newer session (signed in anew in another tab): take that one. Until it arrives
    // the tab stays as it is: passing through signed out would make a guard redirect.
    void this.core.userStorage.clearUser().then(() => this.restore());
  }

  /**
   * Shows the stored or shared session. With none, a failure that came meanwhile stays on screen,
   * and with `keepFailure` (another tab's news) any failure.
   */
  async restore(keepFailure = false): Promise<void> {
    // A sign-out under way settles the state itself (a remount meanwhile must not show it over).
    if (this.core.parts.signOut.signingOut !== undefined) return;
    const epoch = this.core.epoch;
    const shown = this.core.snapshot.error;
    const record = this.core.records().read();
    let stored: StoredUser | null = null;
    try {
      stored = await this.core.userStorage.readStored();
    } catch {
      await this.core.userStorage.clearUser();
    }
    if (this.core.epoch !== epoch || this.core.stopped) return;
    let user: User | null = null;
    if (stored !== null && this.isCurrent(stored, record)) {
      user = stored.user;
      this.core.session = stored.session;
      // Past its idle end while no tab of it ran (all closed, or discarded): it ends now, at the
      // provider too, before anything of it shows or renews.
      const idle = this.core.idleLoading && (await this.core.idleLoading);
      if (this.core.epoch === epoch && idle?.endedAway(stored.session) === true) return;
    } else {
      // A session that ended while this tab was away (signed out, replaced) is not shown again.
      if (stored !== null) await this.core.userStorage.clearUser();
      // Only a session the record says exists is worth waiting for (rule 8).
      if (this.core.records().read() !== null && this.core.tabs !== undefined) {
        const shared = await this.core.tabs.request(
          'session-request',
          this.core.environment.tabSessionWait ?? 150,
        );
        if (this.core.epoch !== epoch || this.core.stopped) return;
        // The session arrived meanwhile (a `signed-in` message): nothing left to do.
        if (this.core.session !== null && this.core.snapshot.status === 'authenticated') return;
        if (shared !== null) user = await this.core.parts.sharing.adopt(shared);
      }
    }
    if (this.core.epoch !== epoch || this.core.stopped) return;
    if (user === null) {
      // No session is no news to a sign-in begun meanwhile: its own outcome settles the state.
      if (this.core.parts.signIn.signingIn !== undefined) return;
      // Nor to a failure on screen: one that came meanwhile (a sign-in that failed), or any when a
      // tab's news asked. It stays until the user moves on; a start() again clears an older one.
      const { status, error } = this.core.snapshot;
      if (status === 'error' && (keepFailure || error !== shown)) return;
      this.core.set('unauthenticated', null, null);
      // Sign-in is likely next: fetch discovery now, so the click that opens a popup does not
      // wait on the network (popup blockers only allow windows opened soon after a click). A
      // wrong `authority` shows now rather than at the first click; being offline does not.
      void assertIssuer(this.core).catch((error: unknown) => {
        if (!isAuthError(error, 'config_invalid') || this.core.epoch !== epoch) return;
        if (this.core.snapshot.status === 'unauthenticated') {
          this.core.set('unauthenticated', null, error);
        }
      });
    } else if (user.expired === true) {
      this.core.set('authenticated', user, null);
      await this.core.renewal.renew().catch(() => undefined);
    } else {
      this.core.signedIn(user);
    }
  }

  /** Whether `stored` belongs to the session the shared record names. */
  isCurrent(stored: StoredUser, record: SessionRecord | null): boolean {
    if (stored.session === null) return false;
    if (record !== null) return record.session === stored.session;
    if (this.core.records().shared) return false;
    // No shared storage: the record lived in a page that is gone; this tab's store is all there is.
    void this.core.bookSession(stored.session, stored.user);
    return true;
  }
}

/** The error a tab shows when its session ended in another tab or at the provider. */
export function signedOutElsewhere(reason: 'signed_out_elsewhere' | 'session_expired'): AuthError {
  return authError(
    reason,
    process.env.NODE_ENV !== 'production' && [
      reason === 'session_expired'
        ? 'The session ended at the identity provider.'
        : 'You signed out in another tab.',
      'The local session was cleared.',
    ],
  );
}

import type { RefreshState, User } from 'oidc-client-ts';
import { authError } from './errors';
import { maxRenewRetries } from './Renewal';
import type { SessionRecord } from './sessionRecord';
import { refusalsBeforeUse, tokenEndpointRefusal } from './refusalsBeforeUse';
import { toAuthError } from './toAuthError';
import { randomId } from './randomId';
import { RetryAfterHold } from './retryAfter';
import type { SessionCore } from './SessionCore';

/** oidc-client-ts's refresh of a given user, which `signinSilent` runs for the stored one. */
interface RefreshingManager {
  _useRefreshToken(args: { state: RefreshState; timeoutInSeconds: number }): Promise<User>;
}

/**
 * How a renewal runs (rules 1 and 4 of the session protocol): the refresh token under the guard,
 * else another tab's tokens, else a silent authorize; a failure ends the session or is retried.
 * When it runs is `Renewal`'s.
 */
export class RenewalRunner {
  constructor(private readonly core: SessionCore) {}

  private readonly retryAfterHold = new RetryAfterHold();

  /** Whether this tab's renewal runs now, holding the cross-tab renewal lock (no other tab does). */
  holdsLock = false;

  /** One renewal, under the cross-tab lock; `Renewal.renew` makes sure only one runs. */
  async runRenew(): Promise<User | null> {
    const epoch = this.core.epoch;
    const before =
      this.core.snapshot.user ??
      (await this.core.userStorage.readStored().catch(() => null))?.user ??
      null;
    if (before === null) return null;
    try {
      // A tab without the refresh token (memory storage) asks the tab that holds it first.
      const followed = await this.core.parts.sharing.renewThroughOtherTab(before, epoch);
      const user =
        followed ??
        (await this.core.withNamedLock('renew', async () => {
          this.holdsLock = true;
          try {
            return await this.retryAfterHold.heedingRetryAfter(this.core, () =>
              this.renewHoldingLock(before, epoch),
            );
          } finally {
            this.holdsLock = false;
          }
        }));
      // New tokens start the retries over (`signedIn`); the tokens kept while rule 5 holds a
      // request back are no success, or an app asking on every 401 would retry for ever.
      return user;
    } catch (cause) {
      if (this.core.epoch !== epoch) return null; // signed out meanwhile: nothing left to renew
      const error = toAuthError(cause, 'renew');
      const current = this.core.snapshot.user ?? before;
      const exhausted =
        this.core.renewal.renewRetries >= maxRenewRetries && current.expired === true;
      if (error.code === 'session_expired' || error.code === 'id_token_invalid' || exhausted) {
        const session = this.core.session;
        const everywhere = await this.noTabCanRenew(current);
        // Signed out or in, or another tab's session taken, meanwhile: that one is not this failure's.
        if (this.core.epoch !== epoch || this.core.session !== session) return null;
        // Ended here only: another tab may renew it, and this tab takes only what that brings.
        if (!everywhere && session !== null) {
          this.core.parts.sharing.unrenewable = { session, user: current };
        }
        await this.core.endSession(
          // Out of retries, a passing failure (the provider down, unreachable, slow) ends it too.
          exhausted && /^(renew_failed|network|timeout)$/.test(error.code)
            ? authError(
                'session_expired',
                process.env.NODE_ENV !== 'production' && [
                  `The tokens expired and could not be renewed (${error.message})`,
                  'The local session was cleared.',
                ],
                { cause: error },
              )
            : error,
          everywhere,
        );
        return null;
      }
      // A passing failure (network, provider down): keep the session, retry a bounded few times.
      this.core.set('authenticated', current, error);
      this.core.renewal.scheduleRetry();
      throw error;
    }
  }

  /**
   * Whether the session cannot go on in any tab: no refresh token may be sent (spent, or none),
   * or the one that may is this tab's. Else a tab that holds it may still renew: with memory
   * storage, also a holder the Web Locks API does not show (in the back-forward cache, it lets go).
   */
  async noTabCanRenew(current: User): Promise<boolean> {
    const record = this.core.records().read();
    if (record === null || record.refresh === null) return true;
    return this.core.parts.guard.isCurrent(record, this.core.published.refreshTokenOf(current));
  }

  async renewHoldingLock(before: User, epoch: number): Promise<User | null> {
    const session = this.core.session;
    if (this.core.epoch !== epoch || session === null) return null;
    // Decided before the guard spends the refresh token: a failure here sends nothing.
    const dpop = await this.core.presenter.dpop();
    if (dpop !== null && this.core.presenter.bound && !(await dpop.hasKey())) {
      // Tokens bound to a key that is gone (site data cleared) renew nothing: the session is over.
      throw authError(
        'session_expired',
        process.env.NODE_ENV !== 'production' && [
          "This session's DPoP key is gone (site data cleared?): it cannot be renewed.",
          'The local session was cleared; its refresh token was not sent.',
        ],
      );
    }
    const current = (await this.core.userStorage.readStored())?.user ?? null;
    if (this.core.epoch !== epoch) return null;
    if (current === null) {
      throw authError(
        'session_expired',
        process.env.NODE_ENV !== 'production' && [
          'The session ended while waiting to renew it.',
          'The local session was cleared.',
        ],
      );
    }
    // Another tab renewed while this one waited for the lock (shared storage): use its tokens.
    if (current.access_token !== before.access_token && current.expired !== true) {
      this.core.signedIn(current);
      return current;
    }
    if ((globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false) {
      // Offline: a request now would only spend the token on an answer that cannot come back.
      throw authError(
        'network',
        process.env.NODE_ENV !== 'production' && [
          'The identity provider could not be reached (offline).',
          'The session is kept while its tokens are valid; renewal is retried.',
        ],
      );
    }
    const manager = this.core.manager as unknown as Partial<RefreshingManager>;
    if (typeof manager._useRefreshToken !== 'function') {
      // Checked before the claim: a refresh that cannot run must not spend the token.
      throw authError(
        'config_invalid',
        process.env.NODE_ENV !== 'production' && [
          'This version of oidc-client-ts has no `UserManager._useRefreshToken`, which oidc-kit renews with; use oidc-client-ts 3.5.',
          'Nothing was sent; the session is kept while its tokens are valid.',
        ],
      );
    }
    const guard = this.core.parts.guard;
    const decision = await guard.claim(session, this.core.published.refreshTokenOf(current));
    if (this.core.epoch !== epoch) return null;
    if (decision === 'ended') {
      // Signed out or replaced in another tab, whose news has not reached this one yet.
      this.core.tabSession.recheck();
      return null;
    }
    if (decision === 'send') return this.refresh(current, session, epoch);
    const record = this.core.records().read();
    if (record?.session !== session) {
      this.core.tabSession.recheck();
      return null;
    }
    if (decision === 'not-current' && record.refresh !== null) {
      // Another tab rotated this tab's refresh token: never send it again. Take the current tokens
      // from the tab that holds them, else authorize silently.
      const adopted = await this.core.parts.sharing.currentFromOtherTab(record, before);
      if (this.core.epoch !== epoch) return null;
      if (adopted !== null) {
        this.core.signedIn(adopted);
        return adopted;
      }
    }
    const latest = this.core.records().read();
    if (latest?.session !== session) {
      this.core.tabSession.recheck();
      return null;
    }
    if (guard.tooSoon(latest)) {
      // The session asked the provider under 10 s ago (rule 5): keep what there is.
      this.core.renewal.scheduleRenewal(current);
      return current;
    }
    return this.authorizeSilently(latest, epoch);
  }

  /** Sends the refresh token, which the guard has marked spent. */
  async refresh(current: User, session: string, epoch: number): Promise<User | null> {
    let user: User | null;
    try {
      // The user claimed, not the stored one: `signinSilent` reads the store again, where another
      // tab's sign-in may have put its own user (and refresh token) since the claim (rule 1).
      const manager = this.core.manager as unknown as RefreshingManager;
      this.core.refreshing = current;
      user = await manager._useRefreshToken({
        // What oidc-client-ts's `RefreshState` takes from the user (the class is not exported).
        state: {
          refresh_token: this.core.published.refreshTokenOf(current) as string,
          id_token: current.id_token,
          session_state: current.session_state,
          scope: current.scope,
          profile: current.profile,
          data: current.state,
        },
        timeoutInSeconds: this.core.authConfig.timeout / 1000,
      });
    } catch (error) {
      // The token endpoint answered with a refusal that comes before the token is used
      // (oidc-client-ts gives its refusals the request's `form`, or raises an answer with a
      // `DPoP-Nonce` as ErrorDPoPNonce; a userinfo error after a rotation has neither). Any other
      // failure (no answer, a timeout, an unusable answer, a `server_error` or a code of the
      // provider's own, which may come after the rotation) may follow a rotation: the token
      // stays spent, and a later attempt authorizes silently (rule 1), at the pace of rule 5.
      const refused = tokenEndpointRefusal(error);
      if (refused !== undefined && refusalsBeforeUse.has(refused)) {
        await this.core.parts.guard.settle(session, this.core.published.refreshTokenOf(current));
      }
      throw error;
    } finally {
      this.core.refreshing = null;
    }
    return this.renewed(user, session, epoch);
  }

  /** Renews through a hidden `prompt=none` authorization, where the provider session allows. */
  async authorizeSilently(record: SessionRecord, epoch: number): Promise<User | null> {
    this.core.parts.guard.startRequest(record);
    const user = await this.core.manager.signinSilent({
      forceIframeAuth: true,
      nonce: randomId(),
      silentRequestTimeoutInSeconds: this.core.authConfig.timeout / 1000,
    });
    return this.renewed(user, record.session, epoch);
  }

  async renewed(user: User | null, session: string, epoch: number): Promise<User | null> {
    if (user === null) {
      throw authError(
        'session_expired',
        process.env.NODE_ENV !== 'production' && [
          'The provider returned no session on renewal.',
          'The local session was cleared.',
        ],
      );
    }
    if (this.core.freshSignIn) {
      // The store took this answer for the sign-in under way here (see `storedSession`): it is
      // this session's, which a failed sign-in keeps (a sign-in that ends stores its own last).
      await this.core.userStorage.storeUser(user, session);
    }
    // A record that changed meanwhile is left alone (see `settle`).
    await this.core.parts.guard.settle(session, this.core.published.refreshTokenOf(user));
    if (this.core.epoch !== epoch) {
      // Signed out (here or in another tab) while the request, or this, was under way: drop what
      // came back.
      await this.core.userStorage.clearUser();
      return null;
    }
    this.core.signedIn(user);
    this.core.parts.sharing.announce('renewed', user);
    return user;
  }
}

import type { User } from 'oidc-client-ts';
import { nextRequestAt } from './sessionRecord';
import { wallClockTimer } from './wallClockTimer';
import { warnNeverStarted } from './warnNeverStarted';
import type { SessionCore } from './SessionCore';

/** Failed renewals retried before an expired session ends. */
export const maxRenewRetries = 3;

/**
 * Renewal: when (wall-clock timers, the 10 s floor, backoff with jitter), and one at a time. How a
 * renewal runs is `RenewalRunner`'s. Rule 5 of the session protocol.
 */
export class Renewal {
  constructor(private readonly core: SessionCore) {}

  renewing: Promise<User | null> | undefined;

  readonly renewTimer = wallClockTimer();

  renewRetries = 0;

  /**
   * Renews the tokens now (refresh token, else silent iframe); one renewal at a time, across tabs.
   * Resolves with the user as the app may read it (see `PublishedUsers`).
   */
  renew(): Promise<User | null> {
    this.renewing ??= this.core.parts.renewal
      .runRenew()
      .then((user) => user && this.core.published.publish(user))
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }

  /** A valid access token, renewed first when it expires within 5 seconds; null when signed out. */
  async getAccessToken(): Promise<string | null> {
    // Asked while the page loads (a request on the first render): the session it is restoring, or
    // the sign-in its callback completes, first.
    if (this.core.snapshot.status === 'loading') {
      // Maybe not started yet: a child's effect runs before its AuthProvider's, which starts the
      // client in the same pass; after this turn, a client still not started was never given one.
      await Promise.resolve();
      // Never started: nothing restores the session, and null would send requests without it.
      if (process.env.NODE_ENV !== 'production' && this.core.activation === undefined) {
        warnNeverStarted(this.core);
      }
      await this.core.activation?.catch(() => {});
    }
    const user = this.core.snapshot.user;
    if (user === null) return null;
    if (user.expires_in === undefined || user.expires_in > 5) return user.access_token;
    const renewed = await this.renew().catch(() => null);
    return renewed?.access_token ?? null;
  }

  /** After a 401 for a request sent with `rejected`: a newer token, renewing unless one exists. */
  async renewAfterUnauthorized(rejected: string): Promise<string | null> {
    const current = this.core.snapshot.user?.access_token ?? null;
    if (current !== null && current !== rejected) return current;
    const renewed = await this.renew();
    return renewed?.access_token ?? null;
  }

  scheduleRenewal(user: User): void {
    this.stopRenewing();
    const expiresAt = user.expires_at;
    if (expiresAt === undefined || this.core.stopped) return;
    const left = Math.max(0, expiresAt * 1000 - Date.now());
    // A minute before expiry (half the lifetime when shorter).
    this.renewAt(expiresAt * 1000 - Math.min(60_000, left / 2));
  }

  scheduleRetry(): void {
    this.stopRenewing();
    this.renewRetries += 1;
    if (this.core.stopped) return;
    if (this.renewRetries > maxRenewRetries) {
      // Out of retries: one last attempt once the tokens have expired, which ends the session if
      // it fails too, rather than keeping it with tokens nobody accepts.
      const expiresAt = this.core.snapshot.user?.expires_at;
      if (expiresAt !== undefined) this.renewAt(expiresAt * 1000 + 1000);
      return;
    }
    // Exponential backoff with jitter, so tabs and clients that failed together do not retry so.
    const delay = 2 ** this.renewRetries * 2500 * (0.75 + Math.random() / 2);
    this.renewAt(Date.now() + delay);
  }

  /**
   * Renews at `wanted`, never sooner than the session's last token request allows (rule 5), nor
   * than the provider asked (`Retry-After`).
   */
  renewAt(wanted: number): void {
    const record = this.core.records().read();
    const at = record === null ? wanted : Math.max(wanted, nextRequestAt(record));
    this.renewTimer.schedule(at, () => void this.renew().catch(() => undefined));
  }

  stopRenewing(): void {
    this.renewTimer.cancel();
  }
}

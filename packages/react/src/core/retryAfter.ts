import type { UserManager } from 'oidc-client-ts';
import type { SessionCore } from './SessionCore';
import { tokenServices } from './tokenServices';

/** The longest a `Retry-After` holds the session's token requests back, in ms. */
export const maxRetryAfter = 600_000;

// An HTTP-date in any of its three forms (RFC 9110 §5.6.7): a lenient `Date.parse` alone would
// take "in 2099" for a date.
const httpDate = /^[a-z]{3,9},? [\w -]+ \d\d:\d\d:\d\d( GMT| \d{4})$/i;

/**
 * How long a 429 or 503 asks the client to wait before its next request (`Retry-After`, RFC 9110
 * §10.2.3: seconds or an HTTP-date), in ms, at most `maxRetryAfter`; 0 for none, a date past or a
 * malformed value.
 */
export function retryAfter(response: Response, now = Date.now()): number {
  if (response.status !== 429 && response.status !== 503) return 0;
  // Headers strip the whitespace around a value. A browser gives null for the header of another
  // origin's answer that does not list it in `Access-Control-Expose-Headers`: no wait then.
  const value = response.headers.get('Retry-After') ?? '';
  const wait = /^\d+$/.test(value)
    ? Number(value) * 1000
    : httpDate.test(value)
      ? // asctime, the one form without a zone, is in GMT too.
        Date.parse(value.endsWith('GMT') ? value : `${value} GMT`) - now
      : 0;
  return wait > 0 ? Math.min(wait, maxRetryAfter) : 0;
}

/**
 * Calls `heard` with `retryAfter` of each answer of the token endpoint to `manager` (a refresh, a
 * code exchange). oidc-client-ts gives no status or header with the errors it raises, so this reads
 * the answers where it fetches them; an oidc-client-ts that fetches elsewhere leaves `heard` uncalled.
 */
export function watchRetryAfter(manager: UserManager, heard: (wait: number) => void): void {
  for (const service of tokenServices<JsonServiceInside>(manager)) {
    const fetchTimed = service?.fetchWithTimeout;
    if (service === undefined || fetchTimed === undefined) continue;
    service.fetchWithTimeout = async (...args) => {
      const response = await fetchTimed.apply(service, args);
      heard(retryAfter(response));
      return response;
    };
  }
}

interface JsonServiceInside {
  fetchWithTimeout?(input: RequestInfo, init?: RequestInit): Promise<Response>;
}

/** What a renewal does with the provider's `Retry-After` (rule 5 of the session protocol). */
export class RetryAfterHold {
  /** The wait the token endpoint's last answer asked for, in ms. */
  private providerWait = 0;

  private watching = false;

  /**
   * Runs `renew`. A token request it sends answered 429 or 503 with a `Retry-After` holds the
   * session's next one back that long, in every tab; never past the access token's expiry, though,
   * where the last attempt goes anyway (`Renewal.scheduleRetry`).
   */
  async heedingRetryAfter<T>(core: SessionCore, renew: () => Promise<T>): Promise<T> {
    const session = core.session;
    if (!this.watching) {
      this.watching = true;
      watchRetryAfter(core.manager, (wait) => {
        this.providerWait = wait;
      });
    }
    this.providerWait = 0;
    try {
      return await renew();
    } catch (error) {
      if (this.providerWait > 0) {
        const expiresAt = core.snapshot.user?.expires_at ?? Infinity;
        core.parts.guard.holdOff(
          session,
          Math.min(Date.now() + this.providerWait, expiresAt * 1000 + 1000),
        );
      }
      throw error;
    }
  }
}

/** What the API has served since it started: the figures behind `/admin/stats`. */
export interface UsageSnapshot {
  /** Distinct `sub` values that presented a valid token. */
  readonly distinctUsers: number;
  /** Requests that carried a valid token (including ones then refused for lacking a role). */
  readonly authenticatedRequests: number;
  /** Whole seconds since the API was created. */
  readonly uptimeSeconds: number;
}

/** Counts authenticated requests and their callers, in memory, for one API instance. */
export class Usage {
  readonly #now: () => number;
  readonly #startedAt: number;
  readonly #subjects = new Set<string>();
  #authenticatedRequests = 0;

  /** @param now The clock, in milliseconds. Default `Date.now`. */
  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#startedAt = now();
  }

  /** Records one request that carried a valid token for `sub`. */
  record(sub: string): void {
    this.#subjects.add(sub);
    this.#authenticatedRequests += 1;
  }

  /** The figures so far. */
  snapshot(): UsageSnapshot {
    return {
      distinctUsers: this.#subjects.size,
      authenticatedRequests: this.#authenticatedRequests,
      uptimeSeconds: Math.max(0, Math.floor((this.#now() - this.#startedAt) / 1000)),
    };
  }
}

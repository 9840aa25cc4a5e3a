/**
 * Remembers the `jti` of every DPoP proof until it expires, so a proof is accepted once. One
 * instance per API; a deployment with several instances backs it with a shared store (e.g.
 * Redis `SET jti 1 NX PXAT expiresAt`, where a false answer means "seen").
 */
export interface ReplayCache {
  /**
   * Records `jti` until `expiresAt` (ms since the epoch) and answers whether it was new: false
   * means it was seen before and not yet expired, so the proof is a replay.
   */
  add(jti: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * The in-memory {@link ReplayCache}: entries are dropped once expired; past `maxEntries` live
 * ones, new proofs are refused rather than old ones forgotten (a flood cannot open a replay
 * window).
 */
export class MemoryReplayCache implements ReplayCache {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  add(jti: string, expiresAt: number): boolean {
    const now = this.now();
    const seen = this.entries.get(jti);
    if (seen !== undefined && seen > now) return false;
    if (this.entries.size >= this.maxEntries) this.sweep(now);
    if (this.entries.size >= this.maxEntries) return false;
    this.entries.set(jti, expiresAt);
    return true;
  }

  private sweep(now: number): void {
    for (const [jti, expiresAt] of this.entries) {
      if (expiresAt <= now) this.entries.delete(jti);
    }
  }
}

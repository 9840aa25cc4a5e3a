/**
 * Where idle sign-out stands: `warning` from the warning until the end (`deadline`, ms since the
 * epoch), else `active`. Changes at those moments only, not every second.
 */
export interface IdleSnapshot {
  readonly status: 'active' | 'warning';
  /** When the session ends without input, or null when idle sign-out is off or nobody is in. */
  readonly deadline: number | null;
}

/** Idle sign-out off, or nobody signed in. */
export const inactiveIdle: IdleSnapshot = { status: 'active', deadline: null };

/** Idle sign-out as the client exposes it (see `AuthClient.idle`). */
export interface IdleControl {
  getSnapshot(): IdleSnapshot;
  subscribe(listener: () => void): () => void;
  stay(): void;
}

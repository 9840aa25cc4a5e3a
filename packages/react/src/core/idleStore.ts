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
export const inactiveIdle: IdleSnapshot = Object.freeze({ status: 'active', deadline: null });

/** The idle state and its subscribers, beside the auth state (see `StateStore`). */
export class IdleStore {
  snapshot: IdleSnapshot = inactiveIdle;

  readonly listeners = new Set<() => void>();

  set(status: IdleSnapshot['status'], deadline: number | null): void {
    const { snapshot } = this;
    if (snapshot.status === status && snapshot.deadline === deadline) return;
    this.snapshot = Object.freeze({ status, deadline });
    for (const listener of [...this.listeners]) listener();
  }
}

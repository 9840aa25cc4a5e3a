import type { User } from 'oidc-client-ts';
import { canTransition, createAuthSnapshot, initialAuthSnapshot } from './authState';
import type { AuthSnapshot, AuthStatus, SignOutReason } from './authState';
import type { AuthError } from './errors';
import { sameFields } from './sameFields';

/**
 * The auth state and its subscribers: what the React layer reads. It lives beside the engine, not
 * in it, so a first render needs nothing else (the engine loads when the client starts).
 */
export class StateStore {
  snapshot: AuthSnapshot = initialAuthSnapshot;

  readonly listeners = new Set<() => void>();

  /** Once the client is disposed, the state stays as it is. */
  disposed = false;

  set(
    status: AuthStatus,
    user: User | null,
    error: AuthError | null,
    signOutReason: SignOutReason | null = null,
  ): void {
    if (this.disposed) return;
    // Checked in development only: the table is no use to a production build.
    if (process.env.NODE_ENV !== 'production') {
      const from = this.snapshot.status;
      if (from !== status && !canTransition(from, status)) {
        throw new Error(`oidc-kit: internal error, no transition from ${from} to ${status}.`);
      }
    }
    const next = createAuthSnapshot(status, user, error, signOutReason);
    const current = this.snapshot;
    if (sameFields(current, next)) return;
    this.snapshot = next;
    this.notify();
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Tells every subscriber that something they may read changed (the auth or the idle state). */
  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * Puts `error` in place of the current one, keeping the user and the sign-out reason: an error
   * ends a load (`error`), none ends an `error` (`unauthenticated`); other states keep their status.
   */
  setError(error: AuthError | null): void {
    const { status, user, signOutReason } = this.snapshot;
    let to = status;
    if (error !== null && status === 'loading') to = 'error';
    if (error === null && status === 'error') to = 'unauthenticated';
    this.set(to, user, error, signOutReason);
  }
}

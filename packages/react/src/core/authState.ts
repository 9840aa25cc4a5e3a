import type { User } from 'oidc-client-ts';
import type { AuthError } from './errors';

/** Where the session is. See the states table in the README. */
export type AuthStatus =
  'loading' | 'signing-in' | 'authenticated' | 'signing-out' | 'unauthenticated' | 'error';

/**
 * Why the last session ended: `user` signed out here, `idle` timed out, `expired` ended at the
 * provider, `elsewhere` signed out in another tab. Read by a signed-out page.
 */
export type SignOutReason = 'user' | 'idle' | 'expired' | 'elsewhere';

/**
 * An immutable snapshot of the auth state. The same object is returned while nothing changes, so
 * it can be compared by reference.
 */
export interface AuthSnapshot {
  readonly status: AuthStatus;
  /** The signed-in user; set exactly when `status` is `authenticated`. */
  readonly user: User | null;
  /**
   * The last failure. Always set when `status` is `error`; may also be set beside
   * `unauthenticated` (`session_expired`, `popup_closed`, …) or `authenticated` (`renew_failed`).
   */
  readonly error: AuthError | null;
  /** Why the session ended, while `unauthenticated` after a sign-out; otherwise null. */
  readonly signOutReason: SignOutReason | null;
}

/** `loading`, `signing-in`, `signing-out`: on the way to a settled state. */
export function isUnderWay(status: AuthStatus): boolean {
  return status === 'loading' || status === 'signing-in' || status === 'signing-out';
}

// The design's table, plus: another tab's session may arrive in any settled state, and sign-out
// may be asked for from any state (it always ends signed out).
const transitions: Readonly<Record<AuthStatus, readonly AuthStatus[]>> = {
  loading: ['authenticated', 'unauthenticated', 'signing-in', 'error', 'signing-out'],
  'signing-in': ['authenticated', 'error', 'unauthenticated', 'signing-out'],
  authenticated: ['authenticated', 'signing-out', 'unauthenticated', 'signing-in'],
  'signing-out': ['unauthenticated', 'signing-in'],
  unauthenticated: ['unauthenticated', 'signing-in', 'authenticated', 'signing-out'],
  error: ['error', 'signing-in', 'unauthenticated', 'authenticated', 'signing-out'],
};

/** Whether the state machine allows going from `from` to `to`. */
export function canTransition(from: AuthStatus, to: AuthStatus): boolean {
  return transitions[from].includes(to);
}

/** The snapshot every client starts from. */
export const initialAuthSnapshot: AuthSnapshot = /* @__PURE__ */ createAuthSnapshot(
  'loading',
  null,
  null,
);

/** A frozen snapshot, with `user` present only when authenticated, a reason only when signed out. */
export function createAuthSnapshot(
  status: AuthStatus,
  user: User | null,
  error: AuthError | null,
  signOutReason: SignOutReason | null = null,
): AuthSnapshot {
  return Object.freeze({
    status,
    user: status === 'authenticated' ? user : null,
    error,
    signOutReason: status === 'unauthenticated' ? signOutReason : null,
  });
}

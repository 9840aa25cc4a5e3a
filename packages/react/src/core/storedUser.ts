import type { User } from 'oidc-client-ts';

/** A stored user and the id of the session it belongs to (null when it names none). */
export interface StoredUser {
  readonly user: User;
  readonly session: string | null;
}

/**
 * Where a stored user names its session: beside the user's fields in its storage string, which
 * oidc-client-ts ignores. Written by `CheckedUserStore`, read by the engine (`SessionCore`).
 */
export const sessionField = 'oidc_kit_session';

import type { UserProfile } from 'oidc-client-ts';
import { useSelectedAuthState } from './useSelectedAuthState';

/** The ID token's own claims: they change with every token although the user did not. */
const tokenClaims = ['exp', 'iat', 'nbf', 'nonce', 'jti', 'at_hash', 'c_hash'] as const;

/**
 * The user's claims as {@link useUser} gives them: the profile without the ID token's own claims
 * (`exp`, `iat`, `nbf`, `nonce`, `jti`, `at_hash`, `c_hash`), which change with every renewal.
 * `auth_time` and `sid` stay: they change when the user signs in again.
 */
export type UserClaims = {
  [K in keyof UserProfile as K extends (typeof tokenClaims)[number] ? never : K]: UserProfile[K];
};

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function claimsOf(profile: UserProfile): UserClaims {
  const claims: Record<string, unknown> = { ...profile };
  for (const claim of tokenClaims) delete claims[claim];
  return claims as UserClaims;
}

/**
 * The signed-in user's claims, or null: the profile without the ID token's own claims (see
 * {@link UserClaims}; read those with `useAuthState((s) => s.user?.profile.exp)`). The same object
 * across renewals that do not change the claims, so a component that reads it does not re-render
 * on renewal.
 *
 * @example
 * const user = useUser();
 * return <p>{user?.name}</p>;
 */
export function useUser(): UserClaims | null {
  return useSelectedAuthState(
    'useUser',
    (state) => (state.user ? claimsOf(state.user.profile) : null),
    sameValue,
  );
}

import type { UserProfile } from 'oidc-client-ts';
import { useSelectedAuthState } from './useSelectedAuthState';

// Claims that change with every ID token although the user did not.
const perTokenClaims = new Set([
  'exp',
  'iat',
  'nbf',
  'auth_time',
  'nonce',
  'jti',
  'at_hash',
  'c_hash',
  'sid',
]);

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

function sameProfile(a: UserProfile | null, b: UserProfile | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (!perTokenClaims.has(key) && !sameValue(a[key], b[key])) return false;
  }
  return true;
}

/**
 * The signed-in user's profile claims, or null. The same object across renewals that do not
 * change the claims, so a component that reads it does not re-render on renewal.
 *
 * @example
 * const user = useUser();
 * return <p>{user?.name}</p>;
 */
export function useUser(): UserProfile | null {
  return useSelectedAuthState('useUser', (state) => state.user?.profile ?? null, sameProfile);
}

import type { AuthSnapshot } from '../core/authState';
import { useSelectedAuthState } from './useSelectedAuthState';

/**
 * Reads one slice of the auth state; the component re-renders only when that slice changes.
 *
 * @example
 * const name = useAuthState((state) => state.user?.profile.name);
 */
export function useAuthState<T>(
  selector: (snapshot: AuthSnapshot) => T,
  isEqual?: (previous: T, next: T) => boolean,
): T {
  return useSelectedAuthState('useAuthState', selector, isEqual);
}

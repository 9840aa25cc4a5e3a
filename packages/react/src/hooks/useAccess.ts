import type { AccessRequirements } from '../core/checkAccess';
import { checkAccess } from '../core/checkAccess';
import { useAuthClient } from './useAuthClient';
import { useSelectedAuthState } from './useSelectedAuthState';

/** Whether the signed-in user meets the requirements: `pending`, `signed-out`, `allowed` or `denied`. */
export type Access = 'pending' | 'signed-out' | 'allowed' | 'denied';

/**
 * Checks the signed-in user against roles (any of), scopes (all of) and a predicate.
 *
 * @example
 * const access = useAccess({ roles: ['admin'] }); // 'allowed' | 'denied' | 'signed-out' | 'pending'
 */
export function useAccess(requirements: AccessRequirements = {}): Access {
  const client = useAuthClient('useAccess');
  const { status, user } = useSelectedAuthState('useAccess', (state) => state);
  if (status === 'loading' || status === 'signing-in' || status === 'signing-out') return 'pending';
  if (user === null) return 'signed-out';
  return checkAccess(user, requirements, (subject) => client.readRoles(subject))
    ? 'allowed'
    : 'denied';
}

import { accessOf } from '../core/checkAccess';
import type { Access, AccessRequirements } from '../core/checkAccess';
import { useAuthClient } from './useAuthClient';
import { useSelectedAuthState } from './useSelectedAuthState';

export type { Access } from '../core/checkAccess';

/**
 * Checks the signed-in user against roles (any of), scopes (all of) and a predicate. Subscribes to
 * the answer only: a renewal that leaves it as it was re-renders nothing.
 *
 * @example
 * const access = useAccess({ roles: ['admin'] }); // 'allowed' | 'denied' | 'signed-out' | 'pending'
 */
export function useAccess(requirements: AccessRequirements = {}): Access {
  const client = useAuthClient('useAccess');
  return useSelectedAuthState('useAccess', (state) =>
    accessOf(state, requirements, (user) => client.readRoles(user)),
  );
}

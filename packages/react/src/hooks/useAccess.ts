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
  return useAccessFor('useAccess', requirements);
}

/** `useAccess` for a component, which an error outside `<AuthProvider>` names (`caller`). */
export function useAccessFor(caller: string, requirements: AccessRequirements): Access {
  const client = useAuthClient(caller);
  return useSelectedAuthState(caller, (state) =>
    accessOf(state, requirements, (user) => client.readRoles(user)),
  );
}
